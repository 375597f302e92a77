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
        }
        root = insert(node, into: root)
        return node
    }

    private mutating func insert(_ node: Int32, into tree: Int32) -> Int32 {
        if tree == Self.none { return node }
        if Self.priority(node) > Self.priority(tree) {
            let (l, r) = split(tree, before: elements[Int(node)])
            left[Int(node)] = l
            right[Int(node)] = r
            update(node)
            return node
        }
        precondition(elements[Int(node)] != elements[Int(tree)], "OrderStatisticTree: element inserted twice")
        if elements[Int(node)] < elements[Int(tree)] {
            left[Int(tree)] = insert(node, into: left[Int(tree)])
        } else {
            right[Int(tree)] = insert(node, into: right[Int(tree)])
        }
        size[Int(tree)] &+= 1
        return tree
    }

    /// Splits a subtree into the elements below `key` and the rest.
    private mutating func split(_ tree: Int32, before key: Element) -> (Int32, Int32) {
        if tree == Self.none { return (Self.none, Self.none) }
        if elements[Int(tree)] < key {
            let (l, r) = split(right[Int(tree)], before: key)
            right[Int(tree)] = l
            update(tree)
            return (tree, r)
        } else {
            let (l, r) = split(left[Int(tree)], before: key)
            left[Int(tree)] = r
            update(tree)
            return (l, tree)
        }
    }

    private mutating func merge(_ a: Int32, _ b: Int32) -> Int32 {
        if a == Self.none { return b }
        if b == Self.none { return a }
        if Self.priority(a) > Self.priority(b) {
            right[Int(a)] = merge(right[Int(a)], b)
            update(a)
            return a
        } else {
            left[Int(b)] = merge(a, left[Int(b)])
            update(b)
            return b
        }
    }

    /// Removes the element behind a handle; the handle becomes invalid.
    ///
    /// ```swift
    /// let handle = tree.insert(5)
    /// tree.remove(handle)
    /// ```
    /// - Complexity: O(log n) expected.
    package mutating func remove(_ handle: Handle) {
        root = remove(handle, from: root)
        freeList.append(handle)
    }

    private mutating func remove(_ node: Int32, from tree: Int32) -> Int32 {
        precondition(tree != Self.none, "OrderStatisticTree: handle \(node) is not in the tree")
        if tree == node { return merge(left[Int(node)], right[Int(node)]) }
        if elements[Int(node)] < elements[Int(tree)] {
            left[Int(tree)] = remove(node, from: left[Int(tree)])
        } else {
            right[Int(tree)] = remove(node, from: right[Int(tree)])
        }
        size[Int(tree)] &-= 1
        return tree
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
