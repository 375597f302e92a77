import Testing
import FolioResults
import FolioTestSupport

/// The order-statistic treap against a sorted array.
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
}
