import FolioStore

/// A search keystroke's outcome over the rows of a
/// ``SearchSession``: which rows are in the new
/// results, and who enters or leaves them. Apart from the controller's
/// generic code, so that the loop over a million rows is compiled for its types.
///
/// ```swift
/// let outcome = SearchScan.Outcome(verdicts: verdicts, members: session.members, sections: session.sections)
/// ```
enum SearchScan {
    typealias Entry = ResultsEngine<Int64, RowKey, SectionKey>.Entry
    typealias Sections = [(section: SectionKey, entries: ContiguousArray<Entry>, leads: ContiguousArray<UInt64>)]

    struct Outcome {
        /// Per row, in order: whether it is in the new results.
        var verdicts: [Bool]
        var leaving: [Int64] = []
        /// The rows that enter, by (section, row) in the session.
        var entering: [(section: Int32, row: Int32)] = []
        /// Sections whose rows all stay.
        var whole: [Bool] = []
        /// How many rows are in the new results.
        var count = 0

        /// Compares `verdicts` with today's `members`, both per row in the order of `sections`.
        init(verdicts: [Bool], members: [Bool], sections: Sections) {
            self.verdicts = verdicts
            whole.reserveCapacity(sections.count)
            var index = 0, count = 0
            verdicts.withUnsafeBufferPointer { verdicts in
                members.withUnsafeBufferPointer { members in
                    for (s, (_, entries, _)) in sections.enumerated() {
                        var all = true
                        for i in 0..<entries.count {
                            let keep = verdicts[index], member = members[index]
                            index += 1
                            if keep { count += 1 } else { all = false }
                            if keep != member {
                                if keep { entering.append((Int32(s), Int32(i))) } else { leaving.append(entries[i].id) }
                            }
                        }
                        whole.append(all)
                    }
                }
            }
            self.count = count
        }

        /// The rows that stay, as ``ResultsEngine/load(sorted:)`` takes them;
        /// a section that keeps every row is shared, not copied.
        func kept(_ sections: Sections) -> Sections {
            var index = 0
            return sections.indices.map { s in
                let (section, entries, leads) = sections[s]
                defer { index += entries.count }
                if whole[s] { return (section, entries, leads) }
                var keptEntries = ContiguousArray<Entry>(), keptLeads = ContiguousArray<UInt64>()
                for i in entries.indices where verdicts[index + i] {
                    keptEntries.append(entries[i])
                    keptLeads.append(leads[i])
                }
                return (section, keptEntries, keptLeads)
            }
        }

        /// The entering rows as the engine's changes.
        func enteringChanges(_ sections: Sections) -> [ResultsRowChange<Int64, RowKey, SectionKey>] {
            entering.map { s, i in
                let (section, entries, _) = sections[Int(s)]
                let entry = entries[Int(i)]
                return ResultsRowChange(id: entry.id, row: ResultsRow(id: entry.id, key: entry.key, section: section), objectChanged: false)
            }
        }

        /// The entering rows' identifiers.
        func enteringIDs(_ sections: Sections) -> [Int64] {
            entering.map { s, i in sections[Int(s)].entries[Int(i)].id }
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
