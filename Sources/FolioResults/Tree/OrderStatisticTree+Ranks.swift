extension OrderStatisticTree {
    /// The number of elements below `element` (its index if present).
    ///
    /// ```swift
    /// OrderStatisticTree(sorted: [2, 4, 6]).rank(of: 5)   // 2
    /// ```
    /// - Complexity: O(log n).
    package func rank(of element: Element) -> Int {
        guard let (leaf, below) = descend(to: element) else { return 0 }
        return below + position(of: element, in: leaf)
    }

    /// The rank of the element behind a handle, found by walking up to the
    /// root (no element is compared).
    ///
    /// ```swift
    /// let h = tree.insert(5); tree.rank(ofHandle: h)
    /// ```
    /// - Complexity: O(log n).
    package func rank(ofHandle handle: Handle) -> Int {
        let leaf = leafOf[Int(handle)]
        precondition(leaf != Self.none, "OrderStatisticTree: handle \(handle) is not in the tree")
        var below = Int32(slot(of: handle, in: leaf) - Int(leaf) * Self.leafWidth)
        var child = leaf
        var parent = leafHeaders[Int(leaf)].parent
        while parent != Self.none {
            below &+= sizeBefore(index(of: child, in: parent), in: parent)
            child = parent
            parent = innerHeaders[Int(parent)].parent
        }
        return Int(below)
    }

    /// The handle of a stored element equal to `element`, if any.
    ///
    /// ```swift
    /// tree.handle(of: 4)   // a handle, or nil
    /// ```
    /// - Complexity: O(log n).
    package func handle(of element: Element) -> Handle? {
        guard let (leaf, _) = descend(to: element) else { return nil }
        let position = position(of: element, in: leaf)
        guard position < Int(leafHeaders[Int(leaf)].count) else { return nil }
        let handle = leafHandles[Int(leaf) * Self.leafWidth + position]
        return elements[Int(handle)] == element ? handle : nil
    }

    /// The handle of the element at a zero-based rank.
    ///
    /// ```swift
    /// let h = tree.handle(at: 0)   // the smallest element's handle
    /// ```
    /// - Complexity: O(log n).
    package func handle(at rank: Int) -> Handle {
        precondition(rank >= 0 && rank < count, "OrderStatisticTree: rank \(rank) out of 0..<\(count)")
        var node = root
        var r = Int32(rank)
        for _ in 0..<height {
            let base = Int(node) * Self.innerWidth
            var i = 0
            while r >= innerChildren[base + i].size {
                r -= innerChildren[base + i].size
                i += 1
            }
            node = innerChildren[base + i].node
        }
        return leafHandles[Int(node) * Self.leafWidth + Int(r)]
    }

    /// The element at a zero-based rank.
    ///
    /// ```swift
    /// OrderStatisticTree(sorted: [2, 4, 6]).element(at: 1)   // 4
    /// ```
    /// - Complexity: O(log n).
    package func element(at rank: Int) -> Element { elements[Int(handle(at: rank))] }

    /// Every element in increasing order.
    ///
    /// ```swift
    /// OrderStatisticTree(sorted: [1, 3]).sortedElements()   // [1, 3]
    /// ```
    /// - Complexity: O(n).
    package func sortedElements() -> [Element] {
        var result: [Element] = []
        result.reserveCapacity(count)
        forEachInOrder { result.append($0) }
        return result
    }

    /// Calls `body` on each element in increasing order.
    ///
    /// ```swift
    /// tree.forEachInOrder { print($0) }
    /// ```
    /// - Complexity: O(n).
    package func forEachInOrder(_ body: (Element) -> Void) {
        forEachHandleInOrder { body(elements[Int($0)]) }
    }

    /// Calls `body` on each element's handle in increasing order of the elements.
    ///
    /// ```swift
    /// tree.forEachHandleInOrder { handle in print(tree[handle]) }
    /// ```
    /// - Complexity: O(n).
    package func forEachHandleInOrder(_ body: (Handle) -> Void) {
        guard root != Self.none else { return }
        forEachLeaf(below: root, atHeight: height) { leaf in
            let base = Int(leaf) * Self.leafWidth
            for j in 0..<Int(leafHeaders[Int(leaf)].count) { body(leafHandles[base + j]) }
        }
    }

    /// Calls `body` on each leaf under `node`, in order.
    private func forEachLeaf(below node: Int32, atHeight height: Int, _ body: (Int32) -> Void) {
        if height == 0 { return body(node) }
        let base = Int(node) * Self.innerWidth
        for i in 0..<Int(innerHeaders[Int(node)].count) { forEachLeaf(below: innerChildren[base + i].node, atHeight: height - 1, body) }
    }

    /// The leaf where `element` is or would be, and the number of elements in the leaves before it.
    private func descend(to element: Element) -> (leaf: Int32, below: Int)? {
        guard root != Self.none else { return nil }
        var node = root
        var below: Int32 = 0
        for _ in 0..<height {
            let base = Int(node) * Self.innerWidth
            var low = 1, high = Int(innerHeaders[Int(node)].count)
            while low < high {
                let middle = (low + high) >> 1
                if element < elements[Int(innerChildren[base + middle].firstHandle)] { high = middle } else { low = middle + 1 }
            }
            below &+= sizeBefore(low - 1, in: node)
            node = innerChildren[base + low - 1].node
        }
        return (node, Int(below))
    }

    /// The number of elements of a leaf below `element`.
    private func position(of element: Element, in leaf: Int32) -> Int {
        let base = Int(leaf) * Self.leafWidth
        var low = 0, high = Int(leafHeaders[Int(leaf)].count)
        while low < high {
            let middle = (low + high) >> 1
            if elements[Int(leafHandles[base + middle])] < element { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Checks order, sizes, first elements, parents and every handle's leaf;
    /// traps with a message on failure.
    ///
    /// ```swift
    /// tree.checkInvariants()
    /// ```
    /// - Complexity: O(n).
    package func checkInvariants() {
        var previous: Handle?
        var seen = 0
        forEachHandleInOrder { handle in
            if let previous {
                precondition(elements[Int(previous)] < elements[Int(handle)], "OrderStatisticTree: out of order")
                precondition(isOrdered(previous, before: handle), "OrderStatisticTree: leads out of order")
            }
            previous = handle
            seen += 1
        }
        precondition(seen == count, "OrderStatisticTree: count \(count) but \(seen) elements")
        var linked = 0
        for handle in leafOf.indices where leafOf[handle] != Self.none { linked += 1 }
        precondition(linked == count, "OrderStatisticTree: \(linked) handles name a leaf for \(count) elements")
        guard root != Self.none else { return precondition(height == 0, "OrderStatisticTree: empty but \(height) high") }
        let size = check(root, atHeight: height, parent: Self.none)
        precondition(size == total, "OrderStatisticTree: size \(size) but count \(total)")
    }

    /// Checks one subtree and returns its size.
    private func check(_ node: Int32, atHeight level: Int, parent: Int32) -> Int32 {
        precondition(
            self.parent(of: node, atHeight: level) == parent, "OrderStatisticTree: node \(node) does not know its parent \(parent)")
        let width = fill(of: node, atHeight: level)
        precondition(width > 0 && width <= self.width(atHeight: level), "OrderStatisticTree: node \(node) holds \(width)")
        if level == 0 {
            let base = Int(node) * Self.leafWidth
            for j in 0..<width {
                let handle = leafHandles[base + j]
                precondition(leafOf[Int(handle)] == node, "OrderStatisticTree: handle \(handle) does not know its leaf \(node)")
                precondition(leafLeads[base + j] == leads[Int(handle)], "OrderStatisticTree: leaf \(node) has a stale lead for \(handle)")
            }
            return Int32(width)
        }
        let base = Int(node) * Self.innerWidth
        var size: Int32 = 0
        for i in 0..<width {
            let child = innerChildren[base + i]
            let first = first(of: child.node, atHeight: level - 1)
            precondition(
                child.firstHandle == first.handle && child.firstLead == first.lead,
                "OrderStatisticTree: node \(node) has a stale first element for child \(i)")
            precondition(check(child.node, atHeight: level - 1, parent: node) == child.size, "OrderStatisticTree: bad size at node \(node)")
            size += child.size
        }
        return size
    }
}

extension OrderStatisticTree {
    /// The elements and their leads in increasing order. A tree whose handles
    /// follow the order (as one built sorted and not edited since) hands over
    /// its own arrays, shared until either side writes.
    ///
    /// ```swift
    /// let (elements, leads) = tree.inOrder()
    /// ```
    /// - Complexity: O(n) comparisons of neighbouring leads, or a walk of the tree.
    package func inOrder() -> (elements: ContiguousArray<Element>, leads: ContiguousArray<UInt64>) {
        if freeList.isEmpty && elements.count == count
            && (1..<max(1, elements.count)).allSatisfy({ isOrdered(Int32($0 - 1), before: Int32($0)) })
        {
            return (elements, leads)
        }
        var sorted = ContiguousArray<Element>(), leads = ContiguousArray<UInt64>()
        sorted.reserveCapacity(count)
        leads.reserveCapacity(count)
        forEachHandleInOrder { handle in
            sorted.append(elements[Int(handle)])
            leads.append(self.leads[Int(handle)])
        }
        return (sorted, leads)
    }
}
