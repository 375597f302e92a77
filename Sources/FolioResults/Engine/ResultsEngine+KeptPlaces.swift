extension ResultsEngine {
    /// Which relocated rows (by index) may be reported as updates instead of
    /// moves: same section, same gap between unchanged rows before and after,
    /// and, among those sharing a gap, the longest run whose order survived.
    /// Gaps are found by sorting, not hashing.
    ///
    /// - Complexity: O(k log k).
    func rowsKeepingTheirPlace(_ relocated: [Relocation], edits: [SectionEdit?], isNew: [Bool]) -> [Bool] {
        var staying = [Bool](repeating: false, count: relocated.count)
        // (slot, unchanged rows before, old row, new row, index) of each candidate.
        var candidates: [(slot: Int32, before: Int, oldRow: Int, newRow: Int, index: Int)] = []
        for (i, item) in relocated.enumerated() where item.oldSlot == item.newSlot && !isNew[Int(item.newSlot)] {
            let edit = edits[Int(item.oldSlot)]!
            let before = item.oldRow - countBelow(item.oldRow, in: edit.leavingRows)
            let after = item.newRow - countBelow(item.newRow, in: edit.comingRows)
            if before == after { candidates.append((item.oldSlot, before, item.oldRow, item.newRow, i)) }
        }
        guard !candidates.isEmpty else { return staying }
        candidates.sort { ($0.slot, $0.before, $0.oldRow) < ($1.slot, $1.before, $1.oldRow) }
        var start = 0
        while start < candidates.count {
            var end = start + 1
            while end < candidates.count && candidates[end].slot == candidates[start].slot
                && candidates[end].before == candidates[start].before
            { end += 1 }
            if end - start == 1 {
                staying[candidates[start].index] = true
            } else {
                for position in longestIncreasingSubsequence(candidates[start..<end].map(\.newRow)) {
                    staying[candidates[start + position].index] = true
                }
            }
            start = end
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
