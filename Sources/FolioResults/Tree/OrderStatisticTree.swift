/// A sorted multiset-free collection that answers "what is at rank r?" and
/// "what is the rank of x?" in O(log n): a treap whose nodes live in flat
/// arrays (no per-node allocation) and carry subtree sizes.
///
/// Nodes have stable handles: an element keeps its handle until it is
/// removed, so callers may keep a handle instead of a copy of the element.
/// Nodes know their parents, so ranking or removing by handle walks up the
/// tree without comparing a single element.
///
/// ```swift
/// var tree = OrderStatisticTree<Int>()
/// let handle = tree.insert(42)
/// tree.insert(7)
/// tree.rank(of: 42)          // 1
/// tree.element(at: 0)        // 7
/// tree[handle]               // 42
/// ```
package struct OrderStatisticTree<Element: Comparable> {
    /// A stable reference to one stored element.
    ///
    /// ```swift
    /// let handle = tree.insert(3)
    /// tree.remove(handle)
    /// ```
    package typealias Handle = Int32

    static var none: Int32 { -1 }

    var elements: ContiguousArray<Element> = []
    var left: ContiguousArray<Int32> = []
    var right: ContiguousArray<Int32> = []
    var size: ContiguousArray<Int32> = []
    var parent: ContiguousArray<Int32> = []
    var freeList: ContiguousArray<Int32> = []
    var root: Int32 = -1

    /// Creates an empty tree.
    ///
    /// ```swift
    /// let tree = OrderStatisticTree<String>()
    /// ```
    package init() {}

    /// Creates a tree from elements already in strictly increasing order.
    ///
    /// ```swift
    /// let tree = OrderStatisticTree(sorted: [1, 2, 5])
    /// ```
    /// - Complexity: O(n).
    package init<S: Sequence>(sorted: S) where S.Element == Element {
        elements = ContiguousArray(sorted)
        let n = elements.count
        left = ContiguousArray(repeating: Self.none, count: n)
        right = ContiguousArray(repeating: Self.none, count: n)
        size = ContiguousArray(repeating: 1, count: n)
        parent = ContiguousArray(repeating: Self.none, count: n)
        // A Cartesian tree over the priorities, built left to right with a stack.
        var stack: [Int32] = []
        stack.reserveCapacity(64)
        for i in 0..<Int32(n) {
            var last = Self.none
            while let top = stack.last, Self.priority(top) < Self.priority(i) {
                last = stack.removeLast()
            }
            left[Int(i)] = last
            if let top = stack.last { right[Int(top)] = i }
            stack.append(i)
        }
        root = stack.first ?? Self.none
        for node in 0..<n {
            if left[node] != Self.none { parent[Int(left[node])] = Int32(node) }
            if right[node] != Self.none { parent[Int(right[node])] = Int32(node) }
        }
        if root != Self.none { fixSizes(root) }
    }

    /// The number of elements.
    ///
    /// ```swift
    /// OrderStatisticTree(sorted: [1, 2]).count   // 2
    /// ```
    package var count: Int { root == Self.none ? 0 : Int(size[Int(root)]) }

    /// True when the tree holds nothing.
    ///
    /// ```swift
    /// OrderStatisticTree<Int>().isEmpty   // true
    /// ```
    package var isEmpty: Bool { root == Self.none }

    /// The element behind a handle.
    ///
    /// ```swift
    /// let h = tree.insert(9); tree[h]   // 9
    /// ```
    package subscript(handle: Handle) -> Element { elements[Int(handle)] }

    /// A fixed pseudo-random priority per slot, so nodes need no stored priority.
    @inline(__always) static func priority(_ node: Int32) -> UInt64 {
        var z = UInt64(UInt32(bitPattern: node)) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    @inline(__always) func sizeOf(_ node: Int32) -> Int32 { node == Self.none ? 0 : size[Int(node)] }

    /// Makes `child` (possibly none) the left child of `node`.
    @inline(__always) mutating func setLeft(_ node: Int32, _ child: Int32) {
        left[Int(node)] = child
        if child != Self.none { parent[Int(child)] = node }
    }

    /// Makes `child` (possibly none) the right child of `node`.
    @inline(__always) mutating func setRight(_ node: Int32, _ child: Int32) {
        right[Int(node)] = child
        if child != Self.none { parent[Int(child)] = node }
    }

    /// Makes `node` (possibly none) the root.
    @inline(__always) mutating func setRoot(_ node: Int32) {
        root = node
        if node != Self.none { parent[Int(node)] = Self.none }
    }

    @inline(__always) mutating func update(_ node: Int32) {
        size[Int(node)] = 1 &+ sizeOf(left[Int(node)]) &+ sizeOf(right[Int(node)])
    }

    @discardableResult
    mutating func fixSizes(_ node: Int32) -> Int32 {
        // Iterative post-order, so a degenerate shape cannot overflow the stack.
        var stack: [(Int32, Bool)] = [(node, false)]
        while let (n, visited) = stack.popLast() {
            if visited { update(n); continue }
            stack.append((n, true))
            if left[Int(n)] != Self.none { stack.append((left[Int(n)], false)) }
            if right[Int(n)] != Self.none { stack.append((right[Int(n)], false)) }
        }
        return size[Int(node)]
    }
}
