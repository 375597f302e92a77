extension OrderStatisticTree {
    /// Inserts an element that is not yet present and returns its handle.
    ///
    /// ```swift
    /// var tree = OrderStatisticTree<Int>()
    /// let handle = tree.insert(5)
    /// ```
    /// - Complexity: O(log n) expected.
    @discardableResult
    package mutating func insert(_ element: Element) -> Handle {
        let node: Int32
        if let reused = freeList.popLast() {
            node = reused
            elements[Int(node)] = element
            left[Int(node)] = Self.none
            right[Int(node)] = Self.none
            size[Int(node)] = 1
        } else {
            node = Int32(elements.count)
            elements.append(element)
            left.append(Self.none)
            right.append(Self.none)
            size.append(1)
            parent.append(Self.none)
        }
        setRoot(insert(node, into: root))
        return node
    }

    private mutating func insert(_ node: Int32, into tree: Int32) -> Int32 {
        if tree == Self.none { return node }
        if Self.priority(node) > Self.priority(tree) {
            let (l, r) = split(tree, before: elements[Int(node)])
            setLeft(node, l)
            setRight(node, r)
            update(node)
            return node
        }
        precondition(elements[Int(node)] != elements[Int(tree)], "OrderStatisticTree: element inserted twice")
        if elements[Int(node)] < elements[Int(tree)] {
            setLeft(tree, insert(node, into: left[Int(tree)]))
        } else {
            setRight(tree, insert(node, into: right[Int(tree)]))
        }
        size[Int(tree)] &+= 1
        return tree
    }

    /// Splits a subtree into the elements below `key` and the rest.
    private mutating func split(_ tree: Int32, before key: Element) -> (Int32, Int32) {
        if tree == Self.none { return (Self.none, Self.none) }
        if elements[Int(tree)] < key {
            let (l, r) = split(right[Int(tree)], before: key)
            setRight(tree, l)
            update(tree)
            return (tree, r)
        } else {
            let (l, r) = split(left[Int(tree)], before: key)
            setLeft(tree, r)
            update(tree)
            return (l, tree)
        }
    }

    private mutating func merge(_ a: Int32, _ b: Int32) -> Int32 {
        if a == Self.none { return b }
        if b == Self.none { return a }
        if Self.priority(a) > Self.priority(b) {
            setRight(a, merge(right[Int(a)], b))
            update(a)
            return a
        } else {
            setLeft(b, merge(a, left[Int(b)]))
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
    package mutating func detach(_ handle: Handle) {
        precondition(handle >= 0 && Int(handle) < elements.count && (parent[Int(handle)] != Self.none || root == handle),
                     "OrderStatisticTree: handle \(handle) is not in the tree")
        let above = parent[Int(handle)]
        let replacement = merge(left[Int(handle)], right[Int(handle)])
        if above == Self.none {
            setRoot(replacement)
        } else {
            if left[Int(above)] == handle { setLeft(above, replacement) } else { setRight(above, replacement) }
            var node = above
            while node != Self.none {
                size[Int(node)] &-= 1
                node = parent[Int(node)]
            }
        }
        parent[Int(handle)] = Self.none
    }

    /// Puts a detached node back with a new element (not yet present).
    ///
    /// ```swift
    /// tree.reattach(handle, as: 9)
    /// ```
    /// - Complexity: O(log n) expected.
    package mutating func reattach(_ handle: Handle, as element: Element) {
        elements[Int(handle)] = element
        left[Int(handle)] = Self.none
        right[Int(handle)] = Self.none
        size[Int(handle)] = 1
        setRoot(insert(handle, into: root))
    }

    /// Replaces the element behind a handle with one that sorts in the same
    /// place (between its neighbours); `checkInvariants()` catches a misuse.
    ///
    /// ```swift
    /// tree.replace(handle, with: renamed)
    /// ```
    /// - Complexity: O(1).
    package mutating func replace(_ handle: Handle, with element: Element) {
        elements[Int(handle)] = element
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
