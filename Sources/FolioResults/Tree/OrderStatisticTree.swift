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

    /// One node's links, subtree size and lead, together: a walk up or down
    /// the tree touches one cache line a level instead of one per field, and
    /// most comparisons on the way down need not read the element.
    struct Node {
        var left: Int32
        var right: Int32
        var parent: Int32
        var size: Int32
        var lead: UInt64
        static func leaf(_ lead: UInt64) -> Node { Node(left: -1, right: -1, parent: -1, size: 1, lead: lead) }
    }

    /// The lead that decides nothing: every comparison reads the elements.
    package static var noLead: UInt64 { 1 << 63 }

    var elements: ContiguousArray<Element> = []
    var nodes: ContiguousArray<Node> = []
    var freeList: ContiguousArray<Int32> = []
    var root: Int32 = -1

    /// Creates an empty tree.
    ///
    /// ```swift
    /// let tree = OrderStatisticTree<String>()
    /// ```
    package init() {}

    /// Creates a tree from elements already in strictly increasing order,
    /// with their leads when given (see ``insertRanked(_:lead:)``).
    ///
    /// ```swift
    /// let tree = OrderStatisticTree(sorted: [1, 2, 5])
    /// ```
    /// - Complexity: O(n).
    package init<S: Sequence>(sorted: S, leads: [UInt64]? = nil) where S.Element == Element {
        elements = ContiguousArray(sorted)
        let n = elements.count
        precondition(leads == nil || leads!.count == n, "OrderStatisticTree: \(leads?.count ?? 0) leads for \(n) elements")
        nodes = Self.leaves(n, room: elements.capacity) { leads?[$0] ?? Self.noLead }
        linkSorted()
    }

    /// ``init(sorted:leads:)`` for elements and leads held in arrays already:
    /// the tree keeps `sorted` itself, shared until either side writes.
    ///
    /// ```swift
    /// let tree = OrderStatisticTree(sorted: elements, leads: leads)
    /// ```
    /// - Complexity: O(n).
    package init(sorted: ContiguousArray<Element>, leads: ContiguousArray<UInt64>) {
        precondition(leads.count == sorted.count, "OrderStatisticTree: \(leads.count) leads for \(sorted.count) elements")
        elements = sorted
        nodes = Self.leaves(sorted.count, room: sorted.capacity) { leads[$0] }
        linkSorted()
    }

    /// `n` unlinked nodes with the given leads, in an array with room for as
    /// many as the elements' array holds: the first inserts then copy neither.
    private static func leaves(_ n: Int, room: Int, lead: (Int) -> UInt64) -> ContiguousArray<Node> {
        ContiguousArray(unsafeUninitializedCapacity: max(n, room)) { buffer, count in
            for i in 0..<n { buffer.initializeElement(at: i, to: .leaf(lead(i))) }
            count = n
        }
    }

    /// Links nodes `0..<n`, in order, into a Cartesian tree over their
    /// priorities, built left to right with a stack. A node's subtree spans
    /// a range of handles, so its size is known when its range closes.
    private mutating func linkSorted() {
        let n = Int32(nodes.count)
        var stack: [Int32] = []
        stack.reserveCapacity(64)
        // The first handle of each node's subtree.
        var low = ContiguousArray<Int32>(repeating: 0, count: Int(n))
        for i in 0..<n {
            var last = Self.none
            let priority = Self.priority(i)
            while let top = stack.last, Self.priority(top) < priority {
                last = stack.removeLast()
                nodes[Int(last)].size = i - low[Int(last)]
            }
            nodes[Int(i)].left = last
            low[Int(i)] = last == Self.none ? i : low[Int(last)]
            if let top = stack.last { nodes[Int(top)].right = i }
            stack.append(i)
        }
        for node in stack { nodes[Int(node)].size = n - low[Int(node)] }
        root = stack.first ?? Self.none
        for node in 0..<Int(n) {
            if nodes[node].left != Self.none { nodes[Int(nodes[node].left)].parent = Int32(node) }
            if nodes[node].right != Self.none { nodes[Int(nodes[node].right)].parent = Int32(node) }
        }
    }

    /// The number of elements.
    ///
    /// ```swift
    /// OrderStatisticTree(sorted: [1, 2]).count   // 2
    /// ```
    package var count: Int { root == Self.none ? 0 : Int(nodes[Int(root)].size) }

    /// True when the tree holds nothing.
    ///
    /// ```swift
    /// OrderStatisticTree<Int>().isEmpty   // true
    /// ```
    package var isEmpty: Bool { root == Self.none }

    /// One more than the largest handle ever given out (freed ones included).
    package var capacity: Int { elements.count }

    /// The element behind a handle.
    ///
    /// ```swift
    /// let h = tree.insert(9); tree[h]   // 9
    /// ```
    package subscript(handle: Handle) -> Element { elements[Int(handle)] }

    /// Whether `element` (with its lead) sorts before the element of `node`:
    /// unequal leads without the top bit decide, as ``RowKey`` leads do.
    @inline(__always) func precedes(_ element: Element, lead: UInt64, _ node: Int32) -> Bool {
        let other = nodes[Int(node)].lead
        if lead != other && (lead | other) & Self.noLead == 0 { return lead < other }
        return element < elements[Int(node)]
    }

    /// The lead stored with a node's element (see ``insertRanked(_:lead:)``).
    package func lead(of handle: Handle) -> UInt64 { nodes[Int(handle)].lead }

    /// Whether the element of node `a` sorts before that of node `b`.
    ///
    /// ```swift
    /// tree.isOrdered(a, before: b)
    /// ```
    package func isOrdered(_ a: Handle, before b: Handle) -> Bool {
        // The leads first, so that most calls read no element.
        let x = nodes[Int(a)].lead, y = nodes[Int(b)].lead
        if x != y && (x | y) & Self.noLead == 0 { return x < y }
        return elements[Int(a)] < elements[Int(b)]
    }

    /// A fixed priority per slot, so nodes need no stored priority: the
    /// top bits count the trailing zeros of slot + 1 and the rest are
    /// pseudo-random. Slots in key order (a loaded or appended run) then make
    /// a balanced tree, about log2 n deep rather than a random treap's
    /// 2 ln n, so every walk is shorter; slots in any other order are a
    /// random permutation of distinct priorities, as in any treap.
    @inline(__always) static func priority(_ node: Int32) -> UInt64 {
        var z = UInt64(UInt32(bitPattern: node)) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        let level = UInt64((UInt32(bitPattern: node) &+ 1).trailingZeroBitCount)
        return level << 58 | (z ^ (z >> 31)) >> 6
    }

    @inline(__always) func sizeOf(_ node: Int32) -> Int32 { node == Self.none ? 0 : nodes[Int(node)].size }
    @inline(__always) func left(_ node: Int32) -> Int32 { nodes[Int(node)].left }
    @inline(__always) func right(_ node: Int32) -> Int32 { nodes[Int(node)].right }
    @inline(__always) func parent(_ node: Int32) -> Int32 { nodes[Int(node)].parent }

    /// Makes `child` (possibly none) the left child of `node`.
    @inline(__always) mutating func setLeft(_ node: Int32, _ child: Int32) {
        nodes[Int(node)].left = child
        if child != Self.none { nodes[Int(child)].parent = node }
    }

    /// Makes `child` (possibly none) the right child of `node`.
    @inline(__always) mutating func setRight(_ node: Int32, _ child: Int32) {
        nodes[Int(node)].right = child
        if child != Self.none { nodes[Int(child)].parent = node }
    }

    /// Makes `node` (possibly none) the root.
    @inline(__always) mutating func setRoot(_ node: Int32) {
        root = node
        if node != Self.none { nodes[Int(node)].parent = Self.none }
    }

    @inline(__always) mutating func update(_ node: Int32) {
        nodes[Int(node)].size = 1 &+ sizeOf(left(node)) &+ sizeOf(right(node))
    }
}
