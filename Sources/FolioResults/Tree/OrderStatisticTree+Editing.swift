#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension OrderStatisticTree {
    /// Inserts an element that is not yet present and returns its handle.
    ///
    /// ```swift
    /// var tree = OrderStatisticTree<Int>()
    /// let handle = tree.insert(5)
    /// ```
    /// - Complexity: O(log n).
    @discardableResult
    package mutating func insert(_ element: Element) -> Handle { insertRanked(element, lead: Self.noLead).handle }

    /// ``insert(_:)`` that also returns the new element's rank, counted on
    /// the way down. `lead` is 63 bits that order as the elements do when
    /// two leads differ (``noLead`` when there are none), so that the way
    /// down compares integers in the nodes it passes.
    ///
    /// ```swift
    /// let (handle, rank) = tree.insertRanked(5, lead: OrderStatisticTree<Int>.noLead)
    /// ```
    /// - Complexity: O(log n).
    package mutating func insertRanked(_ element: Element, lead: UInt64) -> (handle: Handle, rank: Int) {
        let handle = allocate(element, lead: lead)
        return (handle, link(handle))
    }

    /// Removes the element behind a handle; the handle becomes invalid. No
    /// element is compared.
    ///
    /// ```swift
    /// let handle = tree.insert(5)
    /// tree.remove(handle)
    /// ```
    /// - Complexity: O(log n).
    package mutating func remove(_ handle: Handle) {
        detach(handle)
        freeList.append(handle)
    }

    /// Takes an element out of the tree but keeps its handle for
    /// ``reattach(_:as:)``: a row that moves within its section keeps its handle.
    ///
    /// ```swift
    /// tree.detach(handle)
    /// tree.reattach(handle, as: 9)
    /// ```
    /// - Complexity: O(log n).
    package mutating func detach(_ handle: Handle) { _ = detachRanked(handle) }

    /// ``detach(_:)`` that also returns the rank the element had, counted on
    /// the walk up that shrinks the sizes: elements detached in decreasing
    /// order get the ranks they had before the first was detached.
    ///
    /// ```swift
    /// let rank = tree.detachRanked(handle)
    /// ```
    /// - Complexity: O(log n).
    package mutating func detachRanked(_ handle: Handle) -> Int {
        precondition(
            handle >= 0 && Int(handle) < elements.count && leafOf[Int(handle)] != Self.none,
            "OrderStatisticTree: handle \(handle) is not in the tree")
        return detachRanked(handle, at: place(of: handle))
    }

    /// Where a handle lies: its leaf and its position in that leaf.
    package struct Place {
        var leaf: Int32
        var position: Int32
    }

    /// The places of handles in the tree, found in one loop of independent
    /// loads, so that their cache misses overlap rather than come one by one.
    /// A place stays right while only elements of higher rank are detached:
    /// detach a batch from its last element down (``detachRanked(_:at:)``).
    ///
    /// ```swift
    /// let places = tree.places(of: handlesInDecreasingOrder)
    /// ```
    /// - Complexity: O(k) for k handles.
    package func places(of handles: [Handle]) -> [Place] {
        handles.map { handle in
            precondition(
                handle >= 0 && Int(handle) < elements.count && leafOf[Int(handle)] != Self.none,
                "OrderStatisticTree: handle \(handle) is not in the tree")
            return place(of: handle)
        }
    }

    /// The place of a handle that is in the tree.
    @inline(__always) private func place(of handle: Handle) -> Place {
        let leaf = leafOf[Int(handle)]
        return Place(leaf: leaf, position: Int32(slot(of: handle, in: leaf) - Int(leaf) * Self.leafWidth))
    }

    /// ``detachRanked(_:)`` for a handle whose place is known (see ``places(of:)``).
    ///
    /// ```swift
    /// let rank = tree.detachRanked(handle, at: place)
    /// ```
    /// - Complexity: O(log n).
    package mutating func detachRanked(_ handle: Handle, at place: Place) -> Int {
        let leaf = place.leaf
        let base = Int(leaf) * Self.leafWidth
        let count = Int(leafHeaders[Int(leaf)].count)
        let position = Int(place.position)
        precondition(position < count && leafHandles[base + position] == handle, "OrderStatisticTree: handle \(handle) is not at its place")
        UnsafeBlockMove.shift(&leafHandles, from: base + position + 1, to: base + position, count: count - 1 - position)
        UnsafeBlockMove.shift(&leafLeads, from: base + position + 1, to: base + position, count: count - 1 - position)
        leafHeaders[Int(leaf)].count -= 1
        leafOf[Int(handle)] = Self.none
        total &-= 1
        var below = Int32(position)
        // Up the tree: sizes shrink, an emptied node leaves its parent, and a
        // changed first element is copied into the entries that compare against it.
        var child = leaf, level = 0
        var emptied = count == 1
        var firstChanged = position == 0 && !emptied
        var parent = leafHeaders[Int(leaf)].parent
        if emptied { freeNode(leaf, atHeight: 0) }
        while parent != Self.none {
            let node = parent
            let nodeBase = Int(node) * Self.innerWidth
            let i = index(of: child, in: node)
            below &+= sizeBefore(i, in: node)
            parent = innerHeaders[Int(node)].parent
            if emptied {
                let width = Int(innerHeaders[Int(node)].count)
                UnsafeBlockMove.shift(&innerChildren, from: nodeBase + i + 1, to: nodeBase + i, count: width - 1 - i)
                innerHeaders[Int(node)].count -= 1
                emptied = width == 1
                firstChanged = i == 0 && !emptied
                if emptied { freeNode(node, atHeight: level + 1) }
            } else {
                innerChildren[nodeBase + i].size &-= 1
                if firstChanged {
                    let first = first(of: child, atHeight: level)
                    innerChildren[nodeBase + i].firstHandle = first.handle
                    innerChildren[nodeBase + i].firstLead = first.lead
                    firstChanged = i == 0
                }
            }
            child = node
            level += 1
        }
        if emptied {
            root = Self.none
            height = 0
        } else {
            // A root with one child gives way to it.
            while height > 0 && innerHeaders[Int(root)].count == 1 {
                let only = innerChildren[Int(root) * Self.innerWidth].node
                freeNode(root, atHeight: height)
                height -= 1
                root = only
                setParent(of: only, atHeight: height, to: Self.none)
            }
        }
        return Int(below)
    }

    /// Puts a detached handle back with a new element (not yet present).
    ///
    /// ```swift
    /// tree.reattach(handle, as: 9)
    /// ```
    /// - Complexity: O(log n).
    package mutating func reattach(_ handle: Handle, as element: Element) { _ = reattachRanked(handle, as: element, lead: Self.noLead) }

    /// ``reattach(_:as:)`` that also returns the element's new rank (see ``insertRanked(_:lead:)``).
    ///
    /// ```swift
    /// let rank = tree.reattachRanked(handle, as: 9, lead: OrderStatisticTree<Int>.noLead)
    /// ```
    /// - Complexity: O(log n).
    package mutating func reattachRanked(_ handle: Handle, as element: Element, lead: UInt64) -> Int {
        precondition(leafOf[Int(handle)] == Self.none, "OrderStatisticTree: handle \(handle) is still in the tree")
        elements[Int(handle)] = element
        leads[Int(handle)] = lead
        return link(handle)
    }

    /// Whether `element` sorts in `handle`'s place: after the element
    /// before it and before the one after it (see ``replace(_:with:lead:)``).
    ///
    /// ```swift
    /// if tree.fits(renamed, at: handle) { tree.replace(handle, with: renamed) }
    /// ```
    /// - Complexity: O(1) within a leaf, O(log n) at its ends.
    package func fits(_ element: Element, at handle: Handle) -> Bool {
        let leaf = leafOf[Int(handle)]
        precondition(leaf != Self.none, "OrderStatisticTree: handle \(handle) is not in the tree")
        let slot = slot(of: handle, in: leaf), first = Int(leaf) * Self.leafWidth
        let last = first + fill(of: leaf, atHeight: 0) - 1
        var rank: Int?
        func neighbour(_ offset: Int) -> Element? {
            let s = slot + offset
            if s >= first && s <= last { return elements[Int(leafHandles[s])] }
            // At the leaf's end: by rank, found once.
            if rank == nil { rank = self.rank(ofHandle: handle) }
            let r = rank! + offset
            return r >= 0 && r < count ? self.element(at: r) : nil
        }
        if let before = neighbour(-1), !(before < element) { return false }
        if let after = neighbour(1), !(element < after) { return false }
        return true
    }

    /// Replaces the element behind a handle with one that sorts in the same
    /// place (between its neighbours); `checkInvariants()` catches a misuse.
    ///
    /// ```swift
    /// tree.replace(handle, with: renamed)
    /// ```
    /// - Complexity: O(1) for a handle out of the tree, else a search of its
    ///   leaf, and O(log n) when it is its leaf's first.
    package mutating func replace(_ handle: Handle, with element: Element, lead: UInt64 = noLead) {
        elements[Int(handle)] = element
        leads[Int(handle)] = lead
        let leaf = leafOf[Int(handle)]
        guard leaf != Self.none else { return }
        let slot = slot(of: handle, in: leaf)
        leafLeads[slot] = lead
        if slot == Int(leaf) * Self.leafWidth { copyFirst(ofLeaf: leaf) }
    }
}

extension OrderStatisticTree {
    /// Puts an allocated handle (its element and lead stored) into the tree
    /// and returns its rank. A full node on the way down is split before the
    /// way enters it, so the leaf reached has room and no split goes back up.
    mutating func link(_ handle: Int32) -> Int {
        let element = elements[Int(handle)], lead = leads[Int(handle)]
        if root == Self.none {
            root = newNode(atHeight: 0, parent: Self.none)
            height = 0
        } else if fill(of: root, atHeight: height) == width(atHeight: height) {
            growRoot()
        }
        var node = root, level = height
        var below: Int32 = 0
        while level > 0 {
            let base = Int(node) * Self.innerWidth
            // The last child whose first element is not after `element`.
            var low = 1, high = Int(innerHeaders[Int(node)].count)
            while low < high {
                let middle = (low + high) >> 1
                let child = innerChildren[base + middle]
                if precedes(element, lead, child.firstHandle, child.firstLead) { high = middle } else { low = middle + 1 }
            }
            var i = low - 1
            if fill(of: innerChildren[base + i].node, atHeight: level - 1) == width(atHeight: level - 1) {
                split(child: i, of: node, childHeight: level - 1)
                let right = innerChildren[base + i + 1]
                if !precedes(element, lead, right.firstHandle, right.firstLead) { i += 1 }
            }
            below &+= sizeBefore(i, in: node)
            innerChildren[base + i].size &+= 1
            node = innerChildren[base + i].node
            level -= 1
        }
        let base = Int(node) * Self.leafWidth
        let count = Int(leafHeaders[Int(node)].count)
        var low = 0, high = count
        while low < high {
            let middle = (low + high) >> 1
            if follows(element, lead, leafHandles[base + middle], leafLeads[base + middle]) { low = middle + 1 } else { high = middle }
        }
        if low < count {
            let other = leafLeads[base + low]
            precondition(
                (lead != other && (lead | other) & Self.noLead == 0) || elements[Int(leafHandles[base + low])] != element,
                "OrderStatisticTree: element inserted twice")
        }
        UnsafeBlockMove.shift(&leafHandles, from: base + low, to: base + low + 1, count: count - low)
        UnsafeBlockMove.shift(&leafLeads, from: base + low, to: base + low + 1, count: count - low)
        leafHandles[base + low] = handle
        leafLeads[base + low] = lead
        leafHeaders[Int(node)].count += 1
        leafOf[Int(handle)] = node
        total &+= 1
        if low == 0 { copyFirst(ofLeaf: node) }
        return Int(below) + low
    }

    @inline(__always) func width(atHeight height: Int) -> Int { height == 0 ? Self.leafWidth : Self.innerWidth }

    /// A new root above the old one, with the old one as its only child.
    private mutating func growRoot() {
        let old = root
        let first = first(of: old, atHeight: height)
        let node = newNode(atHeight: height + 1, parent: Self.none)
        innerChildren[Int(node) * Self.innerWidth] = Child(size: total, node: old, firstHandle: first.handle, firstLead: first.lead)
        innerHeaders[Int(node)].count = 1
        setParent(of: old, atHeight: height, to: node)
        root = node
        height += 1
    }

    /// Splits child `i` of inner node `node` in two halves, the upper half
    /// becoming child `i + 1`; the elements and nodes moved learn their new node.
    private mutating func split(child i: Int, of node: Int32, childHeight: Int) {
        let base = Int(node) * Self.innerWidth
        let old = innerChildren[base + i].node
        let count = fill(of: old, atHeight: childHeight)
        let keep = count / 2, moved = count - keep
        let new = newNode(atHeight: childHeight, parent: node)
        var movedSize: Int32 = 0
        if childHeight == 0 {
            let from = Int(old) * Self.leafWidth, to = Int(new) * Self.leafWidth
            for j in 0..<moved {
                let handle = leafHandles[from + keep + j]
                leafHandles[to + j] = handle
                leafLeads[to + j] = leafLeads[from + keep + j]
                leafOf[Int(handle)] = new
            }
            leafHeaders[Int(old)].count = Int32(keep)
            leafHeaders[Int(new)].count = Int32(moved)
            movedSize = Int32(moved)
        } else {
            let from = Int(old) * Self.innerWidth, to = Int(new) * Self.innerWidth
            for j in 0..<moved {
                let child = innerChildren[from + keep + j]
                innerChildren[to + j] = child
                movedSize &+= child.size
                setParent(of: child.node, atHeight: childHeight - 1, to: new)
            }
            innerHeaders[Int(old)].count = Int32(keep)
            innerHeaders[Int(new)].count = Int32(moved)
        }
        let width = Int(innerHeaders[Int(node)].count)
        UnsafeBlockMove.shift(&innerChildren, from: base + i + 1, to: base + i + 2, count: width - i - 1)
        let first = first(of: new, atHeight: childHeight)
        innerChildren[base + i].size &-= movedSize
        innerChildren[base + i + 1] = Child(size: movedSize, node: new, firstHandle: first.handle, firstLead: first.lead)
        innerHeaders[Int(node)].count += 1
    }

    /// Copies a leaf's first element into the entries above it that name it:
    /// its parent's, and on up while the node is its parent's first child.
    mutating func copyFirst(ofLeaf leaf: Int32) {
        let first = first(of: leaf, atHeight: 0)
        var child = leaf
        var parent = leafHeaders[Int(leaf)].parent
        while parent != Self.none {
            let i = index(of: child, in: parent)
            innerChildren[Int(parent) * Self.innerWidth + i].firstHandle = first.handle
            innerChildren[Int(parent) * Self.innerWidth + i].firstLead = first.lead
            if i != 0 { return }
            child = parent
            parent = innerHeaders[Int(parent)].parent
        }
    }

    /// An empty node, reused from the free ones when there are some.
    private mutating func newNode(atHeight height: Int, parent: Int32) -> Int32 {
        if height == 0 {
            if let reused = freeLeaves.popLast() {
                leafHeaders[Int(reused)] = Header(count: 0, parent: parent)
                return reused
            }
            leafHandles.append(contentsOf: repeatElement(Self.none, count: Self.leafWidth))
            leafLeads.append(contentsOf: repeatElement(0, count: Self.leafWidth))
            leafHeaders.append(Header(count: 0, parent: parent))
            return Int32(leafHeaders.count - 1)
        }
        if let reused = freeInners.popLast() {
            innerHeaders[Int(reused)] = Header(count: 0, parent: parent)
            return reused
        }
        innerChildren.append(
            contentsOf: repeatElement(Child(size: 0, node: Self.none, firstHandle: Self.none, firstLead: 0), count: Self.innerWidth))
        innerHeaders.append(Header(count: 0, parent: parent))
        return Int32(innerHeaders.count - 1)
    }

    private mutating func freeNode(_ node: Int32, atHeight height: Int) {
        if height == 0 {
            leafHeaders[Int(node)] = Header(count: 0, parent: Self.none)
            freeLeaves.append(node)
        } else {
            innerHeaders[Int(node)] = Header(count: 0, parent: Self.none)
            freeInners.append(node)
        }
    }
}
