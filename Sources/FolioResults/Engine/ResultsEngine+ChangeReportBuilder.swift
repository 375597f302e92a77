extension ResultsEngine {
    /// A changed row that stays in the results under new keys: its change's
    /// index, and its section and row before and after.
    struct Relocation {
        var change: Int32
        var oldSlot: Int32
        var oldRow: Int
        var newSlot: Int32
        var newRow: Int
    }

    /// One object change of a report before its index paths are made: its
    /// change's index and its paths packed as section << 32 | row, so that
    /// sorting moves 24 bytes a change and compares one integer.
    struct Reported {
        var change: Int32
        var old: UInt64
        var new: UInt64
    }

    @inline(__always) static func pack(_ section: Int, _ row: Int32) -> UInt64 { UInt64(section) << 32 | UInt64(UInt32(bitPattern: row)) }
    @inline(__always) static func unpack(_ path: UInt64) -> IndexPath { IndexPath(row: Int(path & 0xFFFF_FFFF), section: Int(path >> 32)) }

    /// Makes a batch's report from where its rows were and went: the
    /// sections' indexes before and after (``SectionIndexes``) and each
    /// change's row in its old and new section (``UnsafeBatchRows``). It
    /// decides what a relocated row is reported as (an update when it kept
    /// its place, a delete and an insert where a table would refuse a move),
    /// and orders the report as the table applies it.
    ///
    /// ```swift
    /// var report = ChangeReportBuilder(
    ///     sections: indexes, rows: rows, deleted: batch.deleted, inserted: placement.inserted, inPlace: batch.inPlace)
    /// report.add(report.relocations(placement.relocated), staying: staying)
    /// let changes = report.build(sectionChanges: sectionChanges, ids: ids, sources: &sources)
    /// ```
    struct ChangeReportBuilder {
        let sections: SectionIndexes
        let rows: UnsafeBatchRows
        private(set) var deletes: [Reported] = []
        private(set) var inserts: [Reported] = []
        private(set) var moves: [Reported] = []
        private(set) var updates: [Reported] = []

        /// Starts a report with the rows that left the results, the new ones,
        /// and those changed in place, each by change and section slot.
        init(
            sections: SectionIndexes, rows: UnsafeBatchRows, deleted: [(change: Int32, slot: Int32)],
            inserted: [(change: Int32, slot: Int32)], inPlace: [(change: Int32, slot: Int32)]
        ) {
            self.sections = sections
            self.rows = rows
            deletes = deleted.map { Reported(change: $0.change, old: Self.path(sections.old, $0.slot, rows.old, $0.change), new: 0) }
            inserts = inserted.map { Reported(change: $0.change, old: 0, new: Self.path(sections.new, $0.slot, rows.new, $0.change)) }
            updates = inPlace.map {
                Reported(
                    change: $0.change, old: Self.path(sections.old, $0.slot, rows.old, $0.change),
                    new: Self.path(sections.new, $0.slot, rows.new, $0.change))
            }
        }

        /// The rows that moved, with their rows before and after.
        func relocations(_ relocated: [(change: Int32, from: Int32, to: Int32)]) -> [Relocation] {
            relocated.map {
                Relocation(
                    change: $0.change, oldSlot: $0.from, oldRow: Int(rows.old[Int($0.change)]), newSlot: $0.to,
                    newRow: Int(rows.new[Int($0.change)]))
            }
        }

        /// Records the rows that moved: as updates those `staying` (they kept
        /// their place among the unchanged rows), as a delete and an insert
        /// those leaving a deleted section, entering a new one or keeping
        /// their path, and as moves the others.
        mutating func add(_ relocations: [Relocation], staying: [Bool]) {
            for (i, item) in relocations.enumerated() {
                let record = Reported(
                    change: item.change, old: pack(sections.old[Int(item.oldSlot)], Int32(item.oldRow)),
                    new: pack(sections.new[Int(item.newSlot)], Int32(item.newRow)))
                if staying[i] {
                    updates.append(record)
                } else if sections.isGone[Int(item.oldSlot)] || sections.isNew[Int(item.newSlot)] || record.old == record.new {
                    // UICollectionView refuses such moves and UITableView reloads; an
                    // equal-path move reads as an update to many clients.
                    deletes.append(record)
                    inserts.append(record)
                } else {
                    moves.append(record)
                }
            }
        }

        /// The report: `sectionChanges` (deletes, then inserts, by index)
        /// and the object changes, deletes, inserts, moves and updates, each
        /// in path order; `sources` gets each object change's change index.
        /// `ids` are the batch's IDs by change index.
        mutating func build(sectionChanges: [SectionChange<Section>], ids: [ID], sources: inout [Int32]) -> ResultsChangeSet<ID, Section> {
            var report = ResultsChangeSet<ID, Section>()
            report.sectionChanges = sectionChanges
            report.sectionChanges.sort { ($0.type == .delete ? 0 : 1, $0.index) < ($1.type == .delete ? 0 : 1, $1.index) }
            // Paths are distinct within each list, so a radix sort gives the comparison sort's order.
            radixSort(&deletes) { $0.old }
            radixSort(&inserts) { $0.new }
            radixSort(&moves) { $0.new }
            radixSort(&updates) { $0.old }
            let total = deletes.count + inserts.count + moves.count + updates.count
            report.objectChanges.reserveCapacity(total)
            sources = []
            sources.reserveCapacity(total)
            func emit(_ records: [Reported], _ type: ResultsChangeType, old: Bool, new: Bool) {
                for r in records {
                    report.objectChanges.append(
                        ObjectChange(
                            type: type, id: ids[Int(r.change)],
                            indexPath: old ? unpack(r.old) : nil, newIndexPath: new ? unpack(r.new) : nil))
                    sources.append(r.change)
                }
            }
            emit(deletes, .delete, old: true, new: false)
            emit(inserts, .insert, old: false, new: true)
            emit(moves, .move, old: true, new: true)
            emit(updates, .update, old: true, new: true)
            return report
        }

        /// A change's packed path: its section's index (by slot) and its row.
        @inline(__always) private static func path(_ index: [Int], _ slot: Int32, _ row: UnsafeBatchRows.Column, _ change: Int32) -> UInt64
        {
            ResultsEngine.pack(index[Int(slot)], row[Int(change)])
        }
        @inline(__always) private func pack(_ section: Int, _ row: Int32) -> UInt64 { ResultsEngine.pack(section, row) }
        @inline(__always) private func unpack(_ path: UInt64) -> IndexPath { ResultsEngine.unpack(path) }
    }
}
