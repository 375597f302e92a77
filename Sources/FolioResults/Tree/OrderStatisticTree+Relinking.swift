extension OrderStatisticTree {
    /// Stores an element in a node of its own, outside the tree until
    /// ``relink(_:)`` places it; returns its handle.
    ///
    /// ```swift
    /// let handle = tree.allocate(7)
    /// ```
    /// - Complexity: O(1) amortised.
    package mutating func allocate(_ element: Element, lead: UInt64 = noLead) -> Handle {
        if let reused = freeList.popLast() {
            elements[Int(reused)] = element
            nodes[Int(reused)].lead = lead
            return reused
        }
        elements.append(element)
        nodes.append(.leaf(lead))
        return Int32(elements.count - 1)
    }

    /// Frees a node that ``relink(_:)`` will leave out; its handle becomes invalid.
    ///
    /// ```swift
    /// tree.release(handle)
    /// ```
    /// - Complexity: O(1); the tree is inconsistent until the next `relink`.
    package mutating func release(_ handle: Handle) {
        nodes[Int(handle)].parent = Self.none
        freeList.append(handle)
    }

    /// Makes the tree exactly the nodes `order` names, in that order (their
    /// elements strictly increasing). Every node keeps its handle, so who
    /// holds handles to the nodes that stay need not hear of it: a batch
    /// that changes many rows of a section re-links it in one pass.
    ///
    /// ```swift
    /// let handles = [tree.handle(at: 0), tree.allocate(9)]
    /// tree.relink(handles)
    /// ```
    /// - Complexity: O(m) for m nodes.
    package mutating func relink(_ order: [Handle]) {
        // A Cartesian tree over the nodes' fixed priorities, built left to right with a stack.
        // A node leaves the stack with its subtree complete (the nodes that left just
        // before it are its right spine), so its size is set then: no pass after.
        var stack: [(node: Int32, priority: UInt64)] = []
        stack.reserveCapacity(64)
        for node in order {
            let priority = Self.priority(node)
            nodes[Int(node)].left = Self.none
            nodes[Int(node)].right = Self.none
            var last = Self.none
            while let top = stack.last, top.priority < priority {
                last = stack.removeLast().node
                update(last)
            }
            setLeft(node, last)
            if let top = stack.last { setRight(top.node, node) }
            stack.append((node, priority))
        }
        setRoot(stack.first?.node ?? Self.none)
        while let top = stack.popLast() { update(top.node) }
    }
}
