import FolioResults
import FolioTestSupport
import Testing

/// The order-statistic tree against a sorted array.
@Suite struct OrderStatisticTreeTests {
    @Test func randomEditsAgreeWithASortedArray() {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed)
        var tree = OrderStatisticTree(sorted: [2, 4, 6])
        var model = [2, 4, 6]
        var handles: [Int: OrderStatisticTree<Int>.Handle] = [:]
        for value in model { handles[value] = tree.handle(of: value) }
        for step in 0..<3000 {
            let value = Int.random(in: 0..<500, using: &random)
            if let handle = handles[value] {
                tree.remove(handle)
                handles[value] = nil
                model.removeAll { $0 == value }
            } else {
                handles[value] = tree.insert(value)
                model.insert(value, at: model.firstIndex { $0 > value } ?? model.count)
            }
            if step % 50 == 0 { tree.checkInvariants() }
            #expect(tree.count == model.count)
            let probe = Int.random(in: 0..<500, using: &random)
            #expect(tree.rank(of: probe) == model.filter { $0 < probe }.count)
            if !model.isEmpty {
                let rank = Int.random(in: 0..<model.count, using: &random)
                #expect(tree.element(at: rank) == model[rank])
                #expect(tree.rank(ofHandle: handles[model[rank]]!) == rank, "step \(step)")
            }
        }
        tree.checkInvariants()
        #expect(tree.sortedElements() == model)
        for (value, handle) in handles { #expect(tree[handle] == value) }
    }

    /// Re-linking many nodes at once (as a batch that changes most of a
    /// section does) keeps every surviving node's handle and gives a valid treap.
    @Test func relinkingKeepsHandlesAndOrder() {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed)
        var model = Array(Set((0..<400).map { _ in Int.random(in: 0..<2000, using: &random) })).sorted()
        var tree = OrderStatisticTree(sorted: model)
        var handles = Dictionary(uniqueKeysWithValues: model.map { ($0, tree.handle(of: $0)!) })
        for round in 0..<60 {
            // Some values leave, some move (same node, new value), some arrive.
            var next = Set(model)
            var moved: [OrderStatisticTree<Int>.Handle] = []
            for value in model where Int.random(in: 0..<4, using: &random) == 0 {
                next.remove(value)
                let handle = handles.removeValue(forKey: value)!
                if Bool.random(using: &random) { tree.release(handle) } else { moved.append(handle) }
            }
            for handle in moved {
                var value = Int.random(in: 0..<2000, using: &random)
                while next.contains(value) { value = Int.random(in: 0..<2000, using: &random) }
                next.insert(value)
                tree.replace(handle, with: value)
                handles[value] = handle
            }
            for _ in 0..<Int.random(in: 0..<80, using: &random) {
                let value = Int.random(in: 0..<2000, using: &random)
                guard !next.contains(value) else { continue }
                next.insert(value)
                handles[value] = tree.allocate(value)
            }
            let kept = Dictionary(uniqueKeysWithValues: handles.map { ($0.value, $0.key) })
            model = next.sorted()
            tree.relink(model.map { handles[$0]! })
            tree.checkInvariants()
            #expect(tree.sortedElements() == model, "round \(round)")
            for (handle, value) in kept { #expect(tree[handle] == value, "round \(round): node \(handle) changed") }
            for (rank, value) in model.enumerated() where rank % 17 == 0 {
                #expect(tree.rank(ofHandle: handles[value]!) == rank, "round \(round)")
                #expect(tree.element(at: rank) == value, "round \(round)")
            }
        }
    }

    /// Ranked inserts and detaches (as a batch uses them: detached from the
    /// largest down, inserted from the smallest up) give the ranks a sorted
    /// array gives; coarse leads (ties read the elements) and no leads mixed.
    @Test func rankedEditsWithLeadsAgreeWithASortedArray() {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed)
        func lead(_ value: Int) -> UInt64 { value % 5 == 0 ? OrderStatisticTree<Int>.noLead : UInt64(value / 8) }
        var model = Array(Set((0..<300).map { _ in Int.random(in: 0..<3000, using: &random) })).sorted()
        var tree = OrderStatisticTree(sorted: model, leads: model.map(lead))
        var handles = Dictionary(uniqueKeysWithValues: model.map { ($0, tree.handle(of: $0)!) })
        for round in 0..<80 {
            // Leaving, from the largest down: each rank as it was before any left.
            let leaving = model.filter { _ in Int.random(in: 0..<6, using: &random) == 0 }
            var moving: [OrderStatisticTree<Int>.Handle] = []
            for value in leaving.reversed() {
                let handle = handles.removeValue(forKey: value)!
                #expect(tree.detachRanked(handle) == model.firstIndex(of: value)!, "round \(round)")
                if Bool.random(using: &random) { tree.release(handle) } else { moving.append(handle) }
            }
            var next = Set(model).subtracting(leaving)
            var arriving: [Int] = []
            for _ in 0..<(moving.count + Int.random(in: 0..<40, using: &random)) {
                let value = Int.random(in: 0..<3000, using: &random)
                if next.insert(value).inserted { arriving.append(value) }
            }
            model = next.sorted()
            // Arriving, from the smallest up: each rank final.
            for value in arriving.sorted() {
                let rank: Int
                if let handle = moving.popLast() {
                    rank = tree.reattachRanked(handle, as: value, lead: lead(value))
                    handles[value] = handle
                } else {
                    let placed = tree.insertRanked(value, lead: lead(value))
                    handles[value] = placed.handle
                    rank = placed.rank
                }
                #expect(rank == model.firstIndex(of: value)!, "round \(round)")
            }
            for handle in moving { tree.release(handle) }
            tree.checkInvariants()
            #expect(tree.sortedElements() == model, "round \(round)")
            for (rank, value) in model.enumerated() where rank % 13 == 0 {
                #expect(tree.rank(ofHandle: handles[value]!) == rank, "round \(round)")
            }
        }
    }

    /// Enough elements for inner nodes over inner nodes: splits of leaves and
    /// inner nodes on the way down, emptied nodes leaving their parents, a
    /// root growing and giving way, all against a sorted array.
    @Test func deepTreesAgreeWithASortedArray() {
        /// The index of the first element not below `value`.
        func lowerBound(_ sorted: [Int], _ value: Int) -> Int {
            var low = 0, high = sorted.count
            while low < high {
                let middle = (low + high) / 2
                if sorted[middle] < value { low = middle + 1 } else { high = middle }
            }
            return low
        }
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed)
        var model = Array(Set((0..<30_000).map { _ in Int.random(in: 0..<1_000_000, using: &random) })).sorted()
        var tree = OrderStatisticTree(sorted: model, leads: model.map { UInt64($0 >> 6) })
        var handles = Dictionary(uniqueKeysWithValues: model.map { ($0, tree.handle(of: $0)!) })
        tree.checkInvariants()
        for round in 0..<12 {
            // A dense run arrives (splitting one region again and again), a
            // wide stretch leaves (emptying whole leaves and inner nodes), and some scatter.
            let start = Int.random(in: 0..<1_000_000, using: &random)
            var arriving = (start..<(start + 6_000)).filter {
                $0 < 1_000_000 && handles[$0] == nil && Int.random(in: 0..<3, using: &random) > 0
            }
            arriving += (0..<500).map { _ in Int.random(in: 0..<1_000_000, using: &random) }.filter { handles[$0] == nil }
            for value in Set(arriving).sorted() {
                let placed = tree.insertRanked(value, lead: UInt64(value >> 6))
                handles[value] = placed.handle
                let rank = lowerBound(model, value)
                model.insert(value, at: rank)
                #expect(placed.rank == rank, "round \(round)")
            }
            let from = Int.random(in: 0..<max(1, model.count), using: &random)
            var leaving = Array(model[from..<min(model.count, from + Int.random(in: 0..<8_000, using: &random))])
            leaving += model.filter { _ in Int.random(in: 0..<50, using: &random) == 0 }
            // Every other round finds every place before the first detach, as the
            // engine does: the places must hold while leaves and inner nodes empty.
            let going = Set(leaving).sorted(by: >)
            let places = round.isMultiple(of: 2) ? tree.places(of: going.map { handles[$0]! }) : nil
            for (i, value) in going.enumerated() {
                let rank = lowerBound(model, value)
                let handle = handles.removeValue(forKey: value)!
                #expect((places.map { tree.detachRanked(handle, at: $0[i]) } ?? tree.detachRanked(handle)) == rank, "round \(round)")
                model.remove(at: rank)
            }
            tree.checkInvariants()
            #expect(tree.count == model.count)
            #expect(tree.sortedElements() == model, "round \(round)")
            for _ in 0..<200 where !model.isEmpty {
                let rank = Int.random(in: 0..<model.count, using: &random)
                #expect(tree.element(at: rank) == model[rank])
                #expect(tree.rank(ofHandle: handles[model[rank]]!) == rank)
                let probe = Int.random(in: 0..<1_000_000, using: &random)
                #expect(tree.rank(of: probe) == lowerBound(model, probe))
            }
        }
        // Down to nothing and back.
        for value in model.reversed() { tree.remove(handles[value]!) }
        tree.checkInvariants()
        #expect(tree.isEmpty)
        for value in [5, 3, 9] { tree.insert(value) }
        tree.checkInvariants()
        #expect(tree.sortedElements() == [3, 5, 9])
    }
}
