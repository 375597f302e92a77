extension OrderStatisticTree {
    /// The number of elements below `element` (its index if present).
    ///
    /// ```swift
    /// OrderStatisticTree(sorted: [2, 4, 6]).rank(of: 5)   // 2
    /// ```
    /// - Complexity: O(log n) expected.
    package func rank(of element: Element) -> Int {
        var node = root
        var below = 0
        while node != Self.none {
            if elements[Int(node)] < element {
                below += Int(sizeOf(left(node))) + 1
                node = right(node)
            } else {
                node = left(node)
            }
        }
        return below
    }

    /// The rank of the element behind a handle, found by walking up to the
    /// root (no element is compared).
    ///
    /// ```swift
    /// let h = tree.insert(5); tree.rank(ofHandle: h)
    /// ```
    /// - Complexity: O(log n) expected.
    package func rank(ofHandle handle: Handle) -> Int {
        var below = sizeOf(left(handle))
        var node = handle
        var size = nodes[Int(handle)].size
        while true {
            let above = parent(node)
            if above == Self.none { return Int(below) }
            // The left sibling's size from the sizes on the path: its node is not read.
            let aboveSize = nodes[Int(above)].size
            if right(above) == node { below &+= aboveSize &- size }
            node = above
            size = aboveSize
        }
    }

    /// The handle of a stored element equal to `element`, if any.
    ///
    /// ```swift
    /// tree.handle(of: 4)   // a handle, or nil
    /// ```
    /// - Complexity: O(log n) expected.
    package func handle(of element: Element) -> Handle? {
        var node = root
        while node != Self.none {
            let here = elements[Int(node)]
            if here == element { return node }
            node = element < here ? left(node) : right(node)
        }
        return nil
    }

    /// The handle of the element at a zero-based rank.
    ///
    /// ```swift
    /// let h = tree.handle(at: 0)   // the smallest element's handle
    /// ```
    /// - Complexity: O(log n) expected.
    package func handle(at rank: Int) -> Handle {
        precondition(rank >= 0 && rank < count, "OrderStatisticTree: rank \(rank) out of 0..<\(count)")
        var node = root
        var r = Int32(rank)
        while true {
            let leftSize = sizeOf(left(node))
            if r < leftSize {
                node = left(node)
            } else if r == leftSize {
                return node
            } else {
                r -= leftSize + 1
                node = right(node)
            }
        }
    }

    /// The element at a zero-based rank.
    ///
    /// ```swift
    /// OrderStatisticTree(sorted: [2, 4, 6]).element(at: 1)   // 4
    /// ```
    /// - Complexity: O(log n) expected.
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

    /// Calls `body` on each element in increasing order, from `rank` on.
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
        var stack: [Int32] = []
        var node = root
        while node != Self.none || !stack.isEmpty {
            while node != Self.none {
                stack.append(node)
                node = left(node)
            }
            let top = stack.removeLast()
            body(top)
            node = right(top)
        }
    }

    /// Checks order, sizes and the heap property; traps with a message on failure.
    ///
    /// ```swift
    /// tree.checkInvariants()
    /// ```
    /// - Complexity: O(n).
    package func checkInvariants() {
        var previous: Element?
        var seen = 0
        forEachInOrder { element in
            if let previous { precondition(previous < element, "OrderStatisticTree: out of order") }
            previous = element
            seen += 1
        }
        precondition(seen == count, "OrderStatisticTree: size \(count) but \(seen) elements")
        precondition(root == Self.none || parent(root) == Self.none, "OrderStatisticTree: the root has a parent")
        var stack: [Int32] = root == Self.none ? [] : [root]
        while let node = stack.popLast() {
            let expected = 1 + sizeOf(left(node)) + sizeOf(right(node))
            precondition(nodes[Int(node)].size == expected, "OrderStatisticTree: bad size at node \(node)")
            for child in [left(node), right(node)] where child != Self.none {
                precondition(Self.priority(child) <= Self.priority(node), "OrderStatisticTree: heap order broken at \(node)")
                precondition(parent(child) == node, "OrderStatisticTree: node \(child) does not know its parent \(node)")
                stack.append(child)
            }
        }
    }
}

extension OrderStatisticTree {
    /// The elements and their leads in increasing order. A tree whose handles
    /// follow the order (as one built sorted and not edited since) hands over
    /// its own element array, shared until either side writes.
    ///
    /// ```swift
    /// let (elements, leads) = tree.inOrder()
    /// ```
    /// - Complexity: O(n) comparisons of neighbouring leads, or a walk of the tree.
    package func inOrder() -> (elements: ContiguousArray<Element>, leads: ContiguousArray<UInt64>) {
        if freeList.isEmpty && elements.count == count && (1..<max(1, elements.count)).allSatisfy({ isOrdered(Int32($0 - 1), before: Int32($0)) }) {
            return (elements, ContiguousArray(nodes.lazy.map { $0.lead }))
        }
        var sorted = ContiguousArray<Element>(), leads = ContiguousArray<UInt64>()
        sorted.reserveCapacity(count)
        leads.reserveCapacity(count)
        forEachHandleInOrder { handle in
            sorted.append(elements[Int(handle)])
            leads.append(nodes[Int(handle)].lead)
        }
        return (sorted, leads)
    }
}
