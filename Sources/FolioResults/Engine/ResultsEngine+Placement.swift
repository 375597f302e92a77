extension ResultsEngine {
    /// The relocated rows (by index) that may be reported as updates instead of
    /// moves: same section, same gap between unchanged rows before and after,
    /// and, among those sharing a gap, the longest run whose order survived.
    ///
    /// - Complexity: O(k log k).
    func rowsKeepingTheirPlace(
        _ relocated: [Relocation],
        departures: [(store: SectionStore, row: Int)],
        arrivals: [(store: SectionStore, row: Int)]
    ) -> Set<Int> {
        guard !relocated.isEmpty else { return [] }
        var leaving: [ObjectIdentifier: [Int]] = [:]
        var coming: [ObjectIdentifier: [Int]] = [:]
        for item in departures { leaving[ObjectIdentifier(item.store), default: []].append(item.row) }
        for item in arrivals { coming[ObjectIdentifier(item.store), default: []].append(item.row) }
        for item in relocated {
            leaving[ObjectIdentifier(item.oldStore), default: []].append(item.oldPath.row)
            coming[ObjectIdentifier(item.newStore), default: []].append(item.newPath.row)
        }
        for key in leaving.keys { leaving[key]!.sort() }
        for key in coming.keys { coming[key]!.sort() }

        var groups: [RowGap: [Int]] = [:]
        for (i, item) in relocated.enumerated() where item.oldStore === item.newStore && !item.newStore.isNew {
            let store = ObjectIdentifier(item.oldStore)
            let before = item.oldPath.row - countBelow(item.oldPath.row, in: leaving[store]!)
            let after = item.newPath.row - countBelow(item.newPath.row, in: coming[store]!)
            if before == after { groups[RowGap(store: store, unchangedBefore: before), default: []].append(i) }
        }
        var staying = Set<Int>()
        for var members in groups.values {
            members.sort { relocated[$0].oldPath.row < relocated[$1].oldPath.row }
            for position in longestIncreasingSubsequence(members.map { relocated[$0].newPath.row }) {
                staying.insert(members[position])
            }
        }
        return staying
    }

    /// How many values of a sorted array are below `value`.
    private func countBelow(_ value: Int, in sorted: [Int]) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

/// A place between two unchanged rows of one section.
struct RowGap: Hashable {
    var store: ObjectIdentifier
    var unchangedBefore: Int
}
