extension OrderStatisticTree {
    /// Stores an element under a handle of its own, outside the tree until
    /// ``relink(_:)`` or ``reattachRanked(_:as:lead:)`` places it; returns its handle.
    ///
    /// ```swift
    /// let handle = tree.allocate(7)
    /// ```
    /// - Complexity: O(1) amortised.
    package mutating func allocate(_ element: Element, lead: UInt64 = noLead) -> Handle {
        if let reused = freeList.popLast() {
            elements[Int(reused)] = element
            leads[Int(reused)] = lead
            leafOf[Int(reused)] = Self.none
            return reused
        }
        elements.append(element)
        leads.append(lead)
        leafOf.append(Self.none)
        return Int32(elements.count - 1)
    }

    /// Frees a handle that ``relink(_:)`` will leave out; it becomes invalid.
    ///
    /// ```swift
    /// tree.release(handle)
    /// ```
    /// - Complexity: O(1); the tree is inconsistent until the next `relink`
    ///   when the handle was still in it.
    package mutating func release(_ handle: Handle) {
        leafOf[Int(handle)] = Self.none
        freeList.append(handle)
    }

    /// Makes the tree exactly the handles `order` names, in that order (their
    /// elements strictly increasing). Every handle stays valid, so who holds
    /// handles to the elements that stay need not hear of it: a batch that
    /// changes many rows of a section re-links it in one pass.
    ///
    /// ```swift
    /// let handles = [tree.handle(at: 0), tree.allocate(9)]
    /// tree.relink(handles)
    /// ```
    /// - Complexity: O(m) for m handles ever given out.
    package mutating func relink(_ order: [Handle]) {
        for i in leafOf.indices { leafOf[i] = Self.none }
        build(order)
    }
}
