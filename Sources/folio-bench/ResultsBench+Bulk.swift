import CSQLite
import FolioResults
import FolioStore
import Foundation

/// Big saves and fetches against raw SQLite doing the same work in the same run.
extension ResultsBench {
    /// How many 1% saves the full run times, for their medians.
    static let bulkSaves = 5

    /// One big save: the whole save, the controller's share of it (from the
    /// save's start to the end of `didChangeContent`; the controller follows
    /// the context, so it reports while the save processes its changes,
    /// before the commit) and raw SQLite running the same UPDATEs with
    /// prepared statements in one transaction on a page-for-page copy of the file.
    struct BulkSave {
        var changes: Int
        var totalMS: Double
        var controllerMS: Double
        var rawMS: Double
        /// The main thread's CPU time over the controller's share.
        var controllerCPUMS = 0.0
        /// Each save's controller share, when this is the median of several.
        var runs: [Double] = []
        var controllerPerChangeUS: Double { controllerMS * 1000 / Double(max(1, changes)) }
        var controllerCPUPerChangeUS: Double { controllerCPUMS * 1000 / Double(max(1, changes)) }

        /// Each figure's median over several saves of the same size: one save
        /// on a noisy machine can land in a slow moment.
        static func median(of saves: [BulkSave]) -> BulkSave {
            func mid(_ figure: (BulkSave) -> Double) -> Double { percentile(saves.map(figure), 0.5) }
            return BulkSave(
                changes: Int(mid { Double($0.changes) }), totalMS: mid(\.totalMS), controllerMS: mid(\.controllerMS),
                rawMS: mid(\.rawMS), controllerCPUMS: mid(\.controllerCPUMS), runs: saves.map(\.controllerMS))
        }

        /// The controller's share of each save, for the printed line.
        var runsText: String { runs.count > 1 ? "; runs " + runs.map(format).joined(separator: ", ") + " ms" : "" }
    }

    /// Changes `rows` (every other one its name, the rest their group), saves, and runs the raw baseline.
    @MainActor
    static func bulkSave(
        _ rows: [ResultsBenchRow], context: ObjectContext, delegate: ResultsBenchDelegate?,
        sections: Int, random: inout Random
    ) throws -> BulkSave {
        guard let path = context.storePath else { fail("the results benchmark needs a store file") }
        let copy = path + ".raw-copy"
        try copyDatabase(from: path, to: copy)
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) } }
        var writes: [(id: Int64, name: String?, group: Int)] = []
        writes.reserveCapacity(rows.count)
        for (i, row) in rows.enumerated() {
            if i % 2 == 0 {
                row.name = name(&random)
                writes.append((row.objectID.rowID, row.name, 0))
            } else {
                row.group = random.below(sections)
                writes.append((row.objectID.rowID, nil, row.group))
            }
        }
        let start = now(), startCPU = cpuNow()
        try context.save()
        let end = now()
        var controllerMS = 0.0, controllerCPUMS = 0.0
        if let delegate {
            guard delegate.finished > start else { fail("the save of \(rows.count) rows was not reported") }
            controllerMS = Double(delegate.finished - start) / 1_000_000
            controllerCPUMS = Double(delegate.finishedCPU - startCPU) / 1_000_000
        }
        let raw = try RawSQLite(copy)
        let rawMS = try measureMS {
            try raw.exec("BEGIN IMMEDIATE")
            let setName = try raw.prepare("UPDATE \"ResultsBenchRow\" SET \"name\" = ? WHERE id = ?")
            let setGroup = try raw.prepare("UPDATE \"ResultsBenchRow\" SET \"group\" = ? WHERE id = ?")
            defer { sqlite3_finalize(setName); sqlite3_finalize(setGroup) }
            for write in writes {
                let s = write.name == nil ? setGroup : setName
                if let name = write.name {
                    sqlite3_bind_text(s, 1, name, -1, storeTransient)
                } else {
                    sqlite3_bind_int64(s, 1, Int64(write.group))
                }
                sqlite3_bind_int64(s, 2, write.id)
                guard sqlite3_step(s) == SQLITE_DONE else { throw raw.error() }
                sqlite3_reset(s)
            }
            try raw.exec("COMMIT")
        }
        return BulkSave(
            changes: rows.count, totalMS: Double(end - start) / 1_000_000, controllerMS: controllerMS, rawMS: rawMS,
            controllerCPUMS: controllerCPUMS)
    }

    /// A page-for-page copy of a live database (its log included), with SQLite's backup API.
    static func copyDatabase(from source: String, to destination: String) throws {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: destination + suffix) }
        let from = try RawSQLite(source), to = try RawSQLite(destination)
        try to.exec("PRAGMA journal_mode=DELETE")
        guard let backup = sqlite3_backup_init(to.db, "main", from.db, "main") else { throw to.error() }
        let rc = sqlite3_backup_step(backup, -1)
        sqlite3_backup_finish(backup)
        guard rc == SQLITE_DONE else { throw to.error() }
    }

    /// Raw SQLite reading the same IDs and keys in the same order as the controller's fetch.
    static func rawKeyScan(_ path: String) throws -> Double {
        let raw = try RawSQLite(path)
        var ids: [Int64] = [], groups: [Int64] = [], names: [String] = []
        let ms = try measureMS {
            let s = try raw.prepare("SELECT id, \"group\", \"name\" FROM \"ResultsBenchRow\" ORDER BY \"group\", \"name\", id")
            defer { sqlite3_finalize(s) }
            while sqlite3_step(s) == SQLITE_ROW {
                ids.append(sqlite3_column_int64(s, 0))
                groups.append(sqlite3_column_int64(s, 1))
                let text = UnsafeBufferPointer(start: sqlite3_column_text(s, 2), count: Int(sqlite3_column_bytes(s, 2)))
                names.append(String(decoding: text, as: UTF8.self))
            }
        }
        precondition(ids.count == groups.count && names.count == ids.count)
        return ms
    }
}

extension ResultsBench {
    /// `--only bulk`: the controller's share of 1% and 10% saves, `--repeat`
    /// times each on one store, with medians; the quick loop for that figure.
    @MainActor
    static func bulkOnly(_ settings: Settings, _ random: inout Random) throws {
        let n = settings.rows
        let (directory, container) = try filledStore("bulk", settings, &random)
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = container.viewContext
        var request = FetchRequest<ResultsBenchRow>(sortBy: [SortDescriptor(\.group), SortDescriptor(\.name)])
        request.fetchBatchSize = 20
        let controller = FetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: \ResultsBenchRow.group)
        let delegate = ResultsBenchDelegate()
        controller.delegate = delegate
        let fetchMS = try measureMS { try controller.performFetch() }
        print("bulk only   rows \(n): performFetch \(format(fetchMS)) ms")
        for fraction in settings.bulkFractions {
            var shares: [Double] = [], cpu: [Double] = [], totals: [Double] = [], changes = 0
            for _ in 0..<settings.repeats {
                let ids = controller.snapshot().itemIdentifiers.flatMap { $0 }
                let picked = Set((0..<max(1, Int(Double(n) * fraction))).map { _ in ids[random.below(ids.count)] })
                let rows = try context.objects(with: Array(picked), as: ResultsBenchRow.self)
                let save = try bulkSave(rows, context: context, delegate: delegate, sections: settings.sections, random: &random)
                shares.append(save.controllerMS)
                cpu.append(save.controllerCPUMS)
                totals.append(save.totalMS)
                changes = save.changes
            }
            print(
                "bulk only   rows \(n): \(Int(fraction * 100))% (\(changes) changes) controller's share median \(format(percentile(shares, 0.5))) ms "
                    + "(CPU \(format(percentile(cpu, 0.5))) ms; runs \(shares.map(format).joined(separator: ", "))); whole save median \(format(percentile(totals, 0.5))) ms"
            )
            fflush(nil)
        }
    }
}
