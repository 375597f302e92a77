extension OrderStatisticTree {
    /// Inserts an element that is not yet present and returns its handle.
    ///
    /// ```swift
    /// var tree = OrderStatisticTree<Int>()
    /// let handle = tree.insert(5)
    /// ```
    /// - Complexity: O(log n) expected.
    @discardableResult
    package mutating func insert(_ element: Element) -> Handle { insertRanked(element, lead: Self.noLead).handle }

    /// ``insert(_:)`` that also returns the new element's rank, counted on
    /// the way down: elements inserted in increasing order get their final
    /// ranks without a walk back up. `lead` is 63 bits that order as the
    /// elements do when two leads differ (``noLead`` when there are none), so
    /// that the way down compares integers in the nodes it passes.
    ///
    /// ```swift
    /// let (handle, rank) = tree.insertRanked(5, lead: OrderStatisticTree<Int>.noLead)
    /// ```
    /// - Complexity: O(log n) expected.
    package mutating func insertRanked(_ element: Element, lead: UInt64) -> (handle: Handle, rank: Int) {
        let node: Int32
        if let reused = freeList.popLast() {
            node = reused
            elements[Int(node)] = element
            nodes[Int(node)] = .leaf(lead)
        } else {
            node = Int32(elements.count)
            elements.append(element)
            nodes.append(.leaf(lead))
        }
        var below: Int32 = 0
        setRoot(insert(node, element, lead, into: root, below: &below))
        return (node, Int(below))
    }

    /// `element` and `lead` are the node's, passed down rather than read at every level.
    private mutating func insert(_ node: Int32, _ element: Element, _ lead: UInt64, into tree: Int32, below: inout Int32) -> Int32 {
        if tree == Self.none { return node }
        if Self.priority(node) > Self.priority(tree) {
            let (l, r) = split(tree, before: element, lead: lead)
            below &+= sizeOf(l)
            setLeft(node, l)
            setRight(node, r)
            update(node)
            return node
        }
        let other = nodes[Int(tree)].lead
        let goesLeft: Bool
        if lead != other && (lead | other) & Self.noLead == 0 {
            goesLeft = lead < other   // unequal leads: unequal elements
        } else {
            let here = elements[Int(tree)]
            precondition(element != here, "OrderStatisticTree: element inserted twice")
            goesLeft = element < here
        }
        if goesLeft {
            setLeft(tree, insert(node, element, lead, into: left(tree), below: &below))
        } else {
            // From the sizes on the path (the right child is read next anyway), not the left child's node.
            below &+= nodes[Int(tree)].size &- sizeOf(right(tree))
            setRight(tree, insert(node, element, lead, into: right(tree), below: &below))
        }
        nodes[Int(tree)].size &+= 1
        return tree
    }

    /// Splits a subtree into the elements below `key` and the rest.
    private mutating func split(_ tree: Int32, before key: Element, lead: UInt64) -> (Int32, Int32) {
        if tree == Self.none { return (Self.none, Self.none) }
        if !precedes(key, lead: lead, tree) {
            let (l, r) = split(right(tree), before: key, lead: lead)
            setRight(tree, l)
            update(tree)
            return (tree, r)
        } else {
            let (l, r) = split(left(tree), before: key, lead: lead)
            setLeft(tree, r)
            update(tree)
            return (l, tree)
        }
    }

    private mutating func merge(_ a: Int32, _ b: Int32) -> Int32 {
        if a == Self.none { return b }
        if b == Self.none { return a }
        if Self.priority(a) > Self.priority(b) {
            setRight(a, merge(right(a), b))
            update(a)
            return a
        } else {
            setLeft(b, merge(a, left(b)))
            update(b)
            return b
        }
    }

    /// Removes the element behind a handle; the handle becomes invalid. No
    /// element is compared: the node's children take its place and the
    /// sizes above it shrink.
    ///
    /// ```swift
    /// let handle = tree.insert(5)
    /// tree.remove(handle)
    /// ```
    /// - Complexity: O(log n) expected.
    package mutating func remove(_ handle: Handle) {
        detach(handle)
        freeList.append(handle)
    }

    /// Takes a node out of the tree but keeps it (and its handle) for
    /// ``reattach(_:as:)``: a row that moves within its section keeps its handle.
    ///
    /// ```swift
    /// tree.detach(handle)
    /// tree.reattach(handle, as: 9)
    /// ```
    /// - Complexity: O(log n) expected.
    package mutating func detach(_ handle: Handle) { _ = detachRanked(handle) }

    /// ``detach(_:)`` that also returns the rank the element had, counted on
    /// the walk up that shrinks the sizes: elements detached in decreasing
    /// order get the ranks they had before the first was detached.
    ///
    /// ```swift
    /// let rank = tree.detachRanked(handle)
    /// ```
    /// - Complexity: O(log n) expected.
    package mutating func detachRanked(_ handle: Handle) -> Int {
        precondition(handle >= 0 && Int(handle) < elements.count && (parent(handle) != Self.none || root == handle),
                     "OrderStatisticTree: handle \(handle) is not in the tree")
        var below = sizeOf(left(handle))
        let above = parent(handle)
        // The size of the subtree the walk up comes from, so that a left
        // sibling's size is a difference of sizes on the path, its node not read.
        var childSize = nodes[Int(handle)].size &- 1
        let replacement = merge(left(handle), right(handle))
        if above == Self.none {
            setRoot(replacement)
        } else {
            var fromRight = right(above) == handle
            if fromRight { setRight(above, replacement) } else { setLeft(above, replacement) }
            var node = above
            while true {
                nodes[Int(node)].size &-= 1
                let size = nodes[Int(node)].size
                if fromRight { below &+= size &- childSize }
                childSize = size
                let next = parent(node)
                if next == Self.none { break }
                fromRight = right(next) == node
                node = next
            }
        }
        nodes[Int(handle)].parent = Self.none
        return Int(below)
    }

    /// Puts a detached node back with a new element (not yet present).
    ///
    /// ```swift
    /// tree.reattach(handle, as: 9)
    /// ```
    /// - Complexity: O(log n) expected.
    package mutating func reattach(_ handle: Handle, as element: Element) { _ = reattachRanked(handle, as: element, lead: Self.noLead) }

    /// ``reattach(_:as:)`` that also returns the element's new rank (see ``insertRanked(_:lead:)``).
    ///
    /// ```swift
    /// let rank = tree.reattachRanked(handle, as: 9, lead: OrderStatisticTree<Int>.noLead)
    /// ```
    /// - Complexity: O(log n) expected.
    package mutating func reattachRanked(_ handle: Handle, as element: Element, lead: UInt64) -> Int {
        elements[Int(handle)] = element
        nodes[Int(handle)] = .leaf(lead)
        var below: Int32 = 0
        setRoot(insert(handle, element, lead, into: root, below: &below))
        return Int(below)
    }

    /// Replaces the element behind a handle with one that sorts in the same
    /// place (between its neighbours); `checkInvariants()` catches a misuse.
    ///
    /// ```swift
    /// tree.replace(handle, with: renamed)
    /// ```
    /// - Complexity: O(1).
    package mutating func replace(_ handle: Handle, with element: Element, lead: UInt64 = noLead) {
        elements[Int(handle)] = element
        nodes[Int(handle)].lead = lead
    }

    /// Removes every element, keeping the storage for reuse.
    ///
    /// ```swift
    /// tree.removeAll()
    /// ```
    /// - Complexity: O(n).
    package mutating func removeAll() {
        self = OrderStatisticTree()
    }
}
