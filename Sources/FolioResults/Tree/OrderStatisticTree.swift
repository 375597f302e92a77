/// A sorted collection of distinct elements that answers "what is at rank
/// r?" and "what is the rank of x?" in O(log n): a B+ tree of wide nodes
/// whose entries carry subtree sizes, kept in flat arrays (no allocation
/// per element or node).
///
/// Nodes are wide so that a search or an edit touches a handful of cache
/// lines rather than one per level of a binary tree: a section of 10,000
/// rows is a root over about 160 leaves of up to 64 elements, and a row's
/// place in its leaf is found by a binary search within 768 contiguous bytes.
///
/// Elements have stable handles: an element keeps its handle until it is
/// removed, so callers may keep a handle instead of a copy of the element.
/// Each handle knows its leaf and each node its parent, so ranking or
/// removing by handle walks up the tree without comparing a single element.
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

    /// The lead that decides nothing: every comparison reads the elements.
    package static var noLead: UInt64 { 1 << 63 }

    /// Elements a leaf holds at most: its handles and leads fill 12 cache lines.
    static var leafWidth: Int { 64 }
    /// Children an inner node holds at most.
    static var innerWidth: Int { 64 }
    /// Elements a leaf gets when built from sorted elements: a little room,
    /// so that the first inserts into it do not split it.
    static var loadedLeaf: Int { 62 }
    /// Children an inner node gets when built.
    static var loadedInner: Int { 56 }

    /// One child of an inner node: its node, the size of its subtree, and
    /// the first element of that subtree (handle and lead), which the way
    /// down compares against.
    struct Child {
        var size: Int32
        var node: Int32
        var firstHandle: Int32
        var firstLead: UInt64
    }

    /// A node's fill and parent (`none` for the root).
    struct Header {
        var count: Int32
        var parent: Int32
    }

    // By handle: the element, its lead, and its leaf (`none` while it is out of the tree).
    var elements: ContiguousArray<Element> = []
    var leads: ContiguousArray<UInt64> = []
    var leafOf: ContiguousArray<Int32> = []
    var freeList: ContiguousArray<Int32> = []

    // Leaves, `leafWidth` slots each: the handles in order and a copy of their leads,
    // so that a search within a leaf reads contiguous memory.
    var leafHandles: ContiguousArray<Int32> = []
    var leafLeads: ContiguousArray<UInt64> = []
    var leafHeaders: ContiguousArray<Header> = []
    var freeLeaves: ContiguousArray<Int32> = []

    // Inner nodes, `innerWidth` children each.
    var innerChildren: ContiguousArray<Child> = []
    var innerHeaders: ContiguousArray<Header> = []
    var freeInners: ContiguousArray<Int32> = []

    /// The root: a leaf when `height` is 0, else an inner node; `none` when empty.
    var root: Int32 = -1
    /// Levels of inner nodes above the leaves.
    var height = 0
    var total: Int32 = 0

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
        self.leads = leads.map { ContiguousArray($0) } ?? ContiguousArray(repeating: Self.noLead, count: n)
        leafOf = ContiguousArray(repeating: Self.none, count: n)
        build(0..<Int32(n))
    }

    /// ``init(sorted:leads:)`` for elements and leads held in arrays already:
    /// the tree keeps both arrays, shared until either side writes, and
    /// sizes the rest for as many elements as `sorted` has room for.
    ///
    /// ```swift
    /// let tree = OrderStatisticTree(sorted: elements, leads: leads)
    /// ```
    /// - Complexity: O(n).
    package init(sorted: ContiguousArray<Element>, leads: ContiguousArray<UInt64>) {
        precondition(leads.count == sorted.count, "OrderStatisticTree: \(leads.count) leads for \(sorted.count) elements")
        elements = sorted
        self.leads = leads
        leafOf = ContiguousArray(unsafeUninitializedCapacity: max(sorted.count, sorted.capacity)) { buffer, count in
            for i in 0..<sorted.count { buffer.initializeElement(at: i, to: Self.none) }
            count = sorted.count
        }
        build(0..<Int32(sorted.count))
    }

    /// The number of elements.
    ///
    /// ```swift
    /// OrderStatisticTree(sorted: [1, 2]).count   // 2
    /// ```
    package var count: Int { Int(total) }

    /// True when the tree holds nothing.
    ///
    /// ```swift
    /// OrderStatisticTree<Int>().isEmpty   // true
    /// ```
    package var isEmpty: Bool { total == 0 }

    /// One more than the largest handle ever given out (freed ones included).
    package var capacity: Int { elements.count }

    /// The element behind a handle.
    ///
    /// ```swift
    /// let h = tree.insert(9); tree[h]   // 9
    /// ```
    package subscript(handle: Handle) -> Element { elements[Int(handle)] }

    /// The lead stored with a handle's element (see ``insertRanked(_:lead:)``).
    package func lead(of handle: Handle) -> UInt64 { leads[Int(handle)] }

    /// Calls `body` with every handle's lead, indexed by handle.
    func withLeads<R>(_ body: (UnsafeBufferPointer<UInt64>) throws -> R) rethrows -> R { try leads.withUnsafeBufferPointer(body) }

    /// Whether `element` (with `lead`) sorts before the element of `handle`
    /// (with `other`, its lead): unequal leads without the top bit decide,
    /// as ``RowKey`` leads do.
    @inline(__always) func precedes(_ element: Element, _ lead: UInt64, _ handle: Int32, _ other: UInt64) -> Bool {
        if lead != other && (lead | other) & Self.noLead == 0 { return lead < other }
        return element < elements[Int(handle)]
    }

    /// Whether the element of `handle` (with lead `other`) sorts before `element` (with `lead`).
    @inline(__always) func follows(_ element: Element, _ lead: UInt64, _ handle: Int32, _ other: UInt64) -> Bool {
        if lead != other && (lead | other) & Self.noLead == 0 { return other < lead }
        return elements[Int(handle)] < element
    }

    /// Whether the element of handle `a` sorts before that of `b`.
    ///
    /// ```swift
    /// tree.isOrdered(a, before: b)
    /// ```
    package func isOrdered(_ a: Handle, before b: Handle) -> Bool {
        // The leads first, so that most calls read no element.
        let x = leads[Int(a)], y = leads[Int(b)]
        if x != y && (x | y) & Self.noLead == 0 { return x < y }
        return elements[Int(a)] < elements[Int(b)]
    }

    /// Removes every element, keeping nothing.
    ///
    /// ```swift
    /// tree.removeAll()
    /// ```
    /// - Complexity: O(n).
    package mutating func removeAll() {
        self = OrderStatisticTree()
    }
}

// MARK: - Building

extension OrderStatisticTree {
    /// Makes the tree exactly `order`'s handles, in that order, from scratch:
    /// leaves filled to ``loadedLeaf``, then each level of inner nodes above
    /// them, every node's elements or children spread evenly.
    mutating func build<C: Collection>(_ order: C) where C.Element == Int32 {
        let n = order.count
        total = Int32(n)
        height = 0
        root = Self.none
        // A re-link reuses the arrays it had: a big batch re-links many sections.
        freeLeaves.removeAll(keepingCapacity: true)
        freeInners.removeAll(keepingCapacity: true)
        innerChildren.removeAll(keepingCapacity: true)
        innerHeaders.removeAll(keepingCapacity: true)
        let leafCount = (n + Self.loadedLeaf - 1) / Self.loadedLeaf
        // Room for a leaf in 32 to split before the arrays grow.
        let leafRoom = leafCount + leafCount / 32 + 1
        leafHandles.removeAll(keepingCapacity: true)
        leafLeads.removeAll(keepingCapacity: true)
        leafHeaders.removeAll(keepingCapacity: true)
        leafHandles.reserveCapacity(leafRoom * Self.leafWidth)
        leafLeads.reserveCapacity(leafRoom * Self.leafWidth)
        leafHeaders.reserveCapacity(leafRoom)
        guard n > 0 else { return }
        var level: [Child] = []
        level.reserveCapacity(leafCount)
        var iterator = order.makeIterator()
        for leaf in 0..<leafCount {
            let size = n / leafCount + (leaf < n % leafCount ? 1 : 0)
            let base = leafHandles.count
            for _ in 0..<size {
                let handle = iterator.next()!
                leafHandles.append(handle)
                leafLeads.append(leads[Int(handle)])
                leafOf[Int(handle)] = Int32(leaf)
            }
            for _ in size..<Self.leafWidth {
                leafHandles.append(Self.none)
                leafLeads.append(0)
            }
            leafHeaders.append(Header(count: Int32(size), parent: Self.none))
            level.append(Child(size: Int32(size), node: Int32(leaf), firstHandle: leafHandles[base], firstLead: leafLeads[base]))
        }
        while level.count > 1 {
            let nodeCount = (level.count + Self.loadedInner - 1) / Self.loadedInner
            var next: [Child] = []
            next.reserveCapacity(nodeCount)
            var start = 0
            for index in 0..<nodeCount {
                let width = level.count / nodeCount + (index < level.count % nodeCount ? 1 : 0)
                let node = Int32(innerHeaders.count)
                var size: Int32 = 0
                for child in level[start..<(start + width)] {
                    innerChildren.append(child)
                    size += child.size
                    setParent(of: child.node, atHeight: height, to: node)
                }
                for _ in width..<Self.innerWidth {
                    innerChildren.append(Child(size: 0, node: Self.none, firstHandle: Self.none, firstLead: 0))
                }
                innerHeaders.append(Header(count: Int32(width), parent: Self.none))
                next.append(Child(size: size, node: node, firstHandle: level[start].firstHandle, firstLead: level[start].firstLead))
                start += width
            }
            level = next
            height += 1
        }
        root = level[0].node
    }

    /// Sets the parent of a node that lies `height` levels above the leaves.
    @inline(__always) mutating func setParent(of node: Int32, atHeight height: Int, to parent: Int32) {
        if height == 0 { leafHeaders[Int(node)].parent = parent } else { innerHeaders[Int(node)].parent = parent }
    }

    @inline(__always) func parent(of node: Int32, atHeight height: Int) -> Int32 {
        height == 0 ? leafHeaders[Int(node)].parent : innerHeaders[Int(node)].parent
    }

    @inline(__always) func fill(of node: Int32, atHeight height: Int) -> Int {
        Int(height == 0 ? leafHeaders[Int(node)].count : innerHeaders[Int(node)].count)
    }

    /// The first element (handle and lead) of a node's subtree.
    @inline(__always) func first(of node: Int32, atHeight height: Int) -> (handle: Int32, lead: UInt64) {
        if height == 0 {
            let base = Int(node) * Self.leafWidth
            return (leafHandles[base], leafLeads[base])
        }
        let child = innerChildren[Int(node) * Self.innerWidth]
        return (child.firstHandle, child.firstLead)
    }

    /// The index in the leaf arrays of a handle's slot in its leaf.
    @inline(__always) func slot(of handle: Int32, in leaf: Int32) -> Int {
        var slot = Int(leaf) * Self.leafWidth
        while leafHandles[slot] != handle { slot += 1 }
        return slot
    }

    /// The index of `child` among the children of inner node `node`.
    @inline(__always) func index(of child: Int32, in node: Int32) -> Int {
        let base = Int(node) * Self.innerWidth
        var i = 0
        while innerChildren[base + i].node != child { i += 1 }
        return i
    }

    /// The sum of the sizes of the first `count` children of `node`.
    @inline(__always) func sizeBefore(_ count: Int, in node: Int32) -> Int32 {
        let base = Int(node) * Self.innerWidth
        var sum: Int32 = 0
        for i in 0..<count { sum &+= innerChildren[base + i].size }
        return sum
    }
}

extension OrderStatisticTree: Sendable where Element: Sendable {}
