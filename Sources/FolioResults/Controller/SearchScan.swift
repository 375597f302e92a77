import FolioStore

/// A search keystroke's outcome over the rows of a ``SearchSession``:
/// which rows are in the new results, and who enters or leaves them, from
/// the members before and after as sorted lists of places. Apart from the
/// controller's generic code, so that the loops over a million rows are
/// compiled for their types.
///
/// ```swift
/// let outcome = SearchScan.Outcome(before: nil, after: [0, 2], rows: 3)   // outcome.leavingCount == 1
/// ```
enum SearchScan {
    typealias Entry = ResultsEngine<Int64, RowKey, SectionKey>.Entry
    typealias Sections = [(section: SectionKey, entries: ContiguousArray<Entry>, leads: ContiguousArray<UInt64>)]

    struct Outcome {
        /// The rows in the results before and after, by place in order; nil for every row.
        let before: [Int32]?
        let after: [Int32]?
        /// How many rows there are, members or not.
        let rows: Int
        let leavingCount: Int
        let enteringCount: Int
        /// How many rows are in the new results.
        var count: Int { after?.count ?? rows }
        var changeCount: Int { leavingCount + enteringCount }

        /// Compares the members `before` and `after` (sorted places among
        /// `rows` rows; nil for every row), the latter among the former when `subset`.
        /// - Complexity: O(m) for the m members of both; O(1) for a subset.
        init(before: [Int32]?, after: [Int32]?, rows: Int, subset: Bool = false) {
            self.before = before
            self.after = after
            self.rows = rows
            let common: Int
            switch (before, after) {
            case (nil, nil): common = rows
            case (nil, let after?): common = after.count
            case (let before?, nil): common = before.count
            case (_?, let after?) where subset: common = after.count
            case (let before?, let after?): common = Self.commonCount(before, after)
            }
            leavingCount = (before?.count ?? rows) - common
            enteringCount = (after?.count ?? rows) - common
        }

        /// How many places two sorted lists share.
        private static func commonCount(_ a: [Int32], _ b: [Int32]) -> Int {
            a.withUnsafeBufferPointer { a in
                b.withUnsafeBufferPointer { b in
                    var i = 0, j = 0, common = 0
                    while i < a.count && j < b.count {
                        let x = a[i], y = b[j]
                        if x == y { common += 1 }
                        if x <= y { i += 1 }
                        if y <= x { j += 1 }
                    }
                    return common
                }
            }
        }

        /// The places in `a` that are not in `b` (both sorted; nil for every row), in order.
        private func difference(_ a: [Int32]?, _ b: [Int32]?) -> [Int32] {
            guard let b else { return [] }
            var result: [Int32] = []
            var j = 0
            func take(_ x: Int32) {
                while j < b.count && b[j] < x { j += 1 }
                if j == b.count || b[j] != x { result.append(x) }
            }
            if let a { for x in a { take(x) } } else { for x in 0..<Int32(rows) { take(x) } }
            return result
        }

        /// Each of `places` as (section, row) of `sections`, which begin at `starts`.
        private func located(_ places: [Int32], _ starts: [Int]) -> [(section: Int32, row: Int32)] {
            var section = 0
            return places.map { place in
                while starts[section + 1] <= Int(place) { section += 1 }
                return (Int32(section), place - Int32(starts[section]))
            }
        }

        /// The rows that leave, by ID, in order.
        func leaving(_ sections: Sections, starts: [Int]) -> [Int64] {
            located(difference(before, after), starts).map { s, i in sections[Int(s)].entries[Int(i)].id }
        }

        /// The rows that enter, by (section, row), in order.
        func entering(_ starts: [Int]) -> [(section: Int32, row: Int32)] {
            located(difference(after, before), starts)
        }

        /// The entering rows as the engine's changes.
        func enteringChanges(_ sections: Sections, starts: [Int]) -> [ResultsRowChange<Int64, RowKey, SectionKey>] {
            entering(starts).map { s, i in
                let (section, entries, _) = sections[Int(s)]
                let entry = entries[Int(i)]
                return ResultsRowChange(id: entry.id, row: ResultsRow(id: entry.id, key: entry.key, section: section), objectChanged: false)
            }
        }

        /// The entering rows' identifiers.
        func enteringIDs(_ sections: Sections, starts: [Int]) -> [Int64] {
            entering(starts).map { s, i in sections[Int(s)].entries[Int(i)].id }
        }
    }

    /// Key column `column`'s value, the section's when sectioned (`first` is 1) and it is 0.
    @inline(__always) static func value(_ column: Int, _ first: Int, _ section: SectionKey, _ key: RowKey) -> StoreValue? {
        if column < first { return section.value }
        return switch key.storage {
        case .empty: nil
        case .one(let value, _): column == first ? value : nil
        case .many(let values, _): values[column - first]
        }
    }
}
