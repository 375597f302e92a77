import FolioResults
import FolioStore
import Foundation

/// A row of the results benchmark: about 100 sections by `group`, sorted by `name`.
final class ResultsBenchRow: ManagedObject {
    @Managed var name: String
    @Managed var group: Int

    override class var entity: EntityDescription {
        EntityDescription(
            ResultsBenchRow.self,
            properties: [
                .attribute(\ResultsBenchRow.name, "name", defaultValue: ""),
                .attribute(\ResultsBenchRow.group, "group", defaultValue: 0, indexed: true),
            ])
    }
}

/// Notes when each batch of changes finishes.
final class ResultsBenchDelegate: FetchedResultsControllerDelegate {
    var finished: UInt64 = 0
    /// The main thread's CPU time then.
    var finishedCPU: UInt64 = 0
    func controllerDidChangeContent(_ controller: AnyFetchedResultsController) {
        finished = ResultsBench.now()
        finishedCPU = ResultsBench.cpuNow()
    }
}

extension ResultsBench {
    static func name(_ random: inout Random) -> String { "n\(1_000_000 + random.below(9_000_000))" }

    /// The controller over a real SQLite store (WAL): fetch, single-object saves
    /// to the end of `didChangeContent`, 1% and 10% saves (medians of several), resident bytes per
    /// row with `fetchBatchSize` 20, and the naive way on the same kind of saves.
    @MainActor
    static func controller(_ settings: Settings, _ random: inout Random) throws -> [String: Double] {
        let n = settings.rows
        let (directory, container) = try filledStore("results", settings, &random)
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = container.viewContext

        var request = FetchRequest<ResultsBenchRow>(sortBy: [SortDescriptor(\.group), SortDescriptor(\.name)])
        request.fetchBatchSize = 20
        // The fill left pages in the connection's cache, which the fetch's scan frees: start without them.
        try context.releaseStoreCache()
        let before = residentBytes()
        let peakKnown = resetPeakResident()
        var controller: FetchedResultsController<ResultsBenchRow>? = FetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: \ResultsBenchRow.group)
        let delegate = ResultsBenchDelegate()
        controller!.delegate = delegate
        let fetchMS = try measureMS { try controller!.performFetch() }
        let bytesPerRow = Double(residentBytes() - before) / Double(n)
        // The most resident at once while the fetch read the rows and built the trees.
        let peakBytesPerRow = peakKnown ? Double(peakResidentBytes() - before) / Double(n) : -1

        // One object per save: keep its section, change it, insert, delete, in turn.
        func randomRow() -> ResultsBenchRow {
            let sections = controller!.sections!
            let section = random.below(sections.count)
            return controller!.object(at: IndexPath(row: random.below(sections[section].numberOfObjects), section: section))
        }
        func change(_ kind: Int, pick: () -> ResultsBenchRow) {
            switch kind % 4 {
            case 0: pick().name = name(&random)
            case 1:
                let row = pick()
                row.group = (row.group + 1 + random.below(settings.sections - 1)) % settings.sections
            case 2:
                let row = ResultsBenchRow(context: context)
                row.name = name(&random)
                row.group = random.below(settings.sections)
            default: context.delete(pick())
            }
        }
        var singles: [Double] = []
        for round in 0..<400 {
            change(round, pick: randomRow)
            let start = now()
            try context.save()
            guard delegate.finished > start else { fail("save \(round) (kind \(round % 4)) was not reported") }
            singles.append(Double(delegate.finished - start) / 1000)
        }

        let allIDs = controller!.snapshot().itemIdentifiers.flatMap { $0 }
        // Several saves of each size, each figure their median.
        func batch(_ fraction: Double, times: Int) throws -> BulkSave {
            let saves = try (0..<times).map { _ in
                let ids = controller?.snapshot().itemIdentifiers.flatMap { $0 } ?? allIDs
                let picked = (0..<max(1, Int(Double(n) * fraction))).map { _ in ids[random.below(ids.count)] }
                let rows = try context.objects(with: Array(Set(picked)), as: ResultsBenchRow.self)
                return try bulkSave(
                    rows, context: context, delegate: controller == nil ? nil : delegate, sections: settings.sections, random: &random)
            }
            return BulkSave.median(of: saves)
        }
        let batch1 = try batch(0.01, times: bulkSaves), batch10 = try batch(0.10, times: 3)
        controller = nil
        let storeBatch10 = try batch(0.10, times: 1).totalMS
        let fetchRawMS = try rawKeyScan(context.storePath!)

        // The store alone (no controller), for the share of the commit in the figures above.
        var ids = try context.fetchIDs(request)
        var storeOnly: [Double] = []
        for round in 0..<400 {
            change(
                round,
                pick: {
                    let index = random.below(ids.count)
                    if round % 4 == 3 { ids.swapAt(index, ids.count - 1) }
                    return context.object(with: round % 4 == 3 ? ids.removeLast() : ids[index], as: ResultsBenchRow.self)
                })
            storeOnly.append(try measureMS { try context.save() } * 1000)
        }

        // The naive way: save, fetch every ID again in order, diff with the old list.
        ids = try context.fetchIDs(request)
        var naive: [Double] = []
        let rounds = max(10, min(200, 2_000_000 / n))
        for round in 0..<rounds {
            change(round, pick: { context.object(with: ids[random.below(ids.count)], as: ResultsBenchRow.self) })
            naive.append(
                try measureMS {
                    try context.save()
                    let fresh = try context.fetchIDs(request)
                    let difference = fresh.difference(from: ids).inferringMoves()
                    precondition(!difference.isEmpty || round % 4 == 0, "the naive diff found no change")
                    ids = fresh
                })
        }
        // The same 1% save at a tenth of the rows: the controller's share a change must not grow with n.
        let tenth = try referenceShare(rows: max(100, n / 10), sections: settings.sections, random: &random)
        let p50 = percentile(singles, 0.5), p99 = percentile(singles, 0.99), naiveMS = percentile(naive, 0.5)
        print(
            "controller  rows \(n): performFetch \(format(fetchMS)) ms; save to didChangeContent p50 \(format(p50)) us, p99 \(format(p99)) us "
                + "(\(singles.count) saves); \(format(bytesPerRow)) resident bytes/row (fetchBatchSize 20), "
                + "peak during performFetch \(peakKnown ? format(peakBytesPerRow) : "unknown") bytes/row")
        for (label, save) in [("1%", batch1), ("10%", batch10)] {
            print(
                "bulk save   rows \(n): \(label) (\(save.changes) changes) whole save \(format(save.totalMS)) ms, raw SQLite same UPDATEs "
                    + "\(format(save.rawMS)) ms, ratio \(format(save.totalMS / save.rawMS))x; controller's share \(format(save.controllerMS)) ms "
                    + "(\(format(save.controllerPerChangeUS)) us a change; CPU \(format(save.controllerCPUMS)) ms\(save.runsText)); "
                    + "medians of \(max(1, save.runs.count)) saves")
        }
        print(
            "share/change rows \(n): 1% save controller's share \(format(batch1.controllerPerChangeUS)) us a change "
                + "(CPU \(format(batch1.controllerCPUPerChangeUS)) us); at \(max(100, n / 10)) rows "
                + "\(format(tenth.controllerPerChangeUS)) us a change (CPU \(format(tenth.controllerCPUPerChangeUS)) us; \(tenth.changes) changes\(tenth.runsText), "
                + "whole save \(format(tenth.totalMS)) ms, raw SQLite \(format(tenth.rawMS)) ms); "
                + "ratio \(format(batch1.controllerPerChangeUS / tenth.controllerPerChangeUS))x (CPU \(format(batch1.controllerCPUPerChangeUS / tenth.controllerCPUPerChangeUS))x)"
        )
        print(
            "first fetch rows \(n): performFetch \(format(fetchMS)) ms, raw SQLite scan of the same ids and keys \(format(fetchRawMS)) ms, "
                + "ratio \(format(fetchMS / fetchRawMS))x")
        fflush(nil)
        // Relaunches at n/100, n/10 (stores of their own) and n (this store), each to the list screen drawn.
        let relaunch = try RelaunchBench.series(rows: n, store: context.storePath!, print: true)
        print(
            "store alone rows \(n): save p50 \(format(percentile(storeOnly, 0.5))) us, p99 \(format(percentile(storeOnly, 0.99))) us "
                + "(\(storeOnly.count) saves, no controller); 10% save \(format(storeBatch10)) ms")
        print(
            "naive       rows \(n): save + re-fetch + diff median \(format(naiveMS)) ms (\(naive.count) saves); "
                + "controller is \(format(naiveMS * 1000 / p50))x faster at p50, \(format(naiveMS * 1000 / p99))x at p99")
        fflush(nil)
        return [
            "fetch_ms": fetchMS, "single_p50_us": p50, "single_p99_us": p99, "batch_1pct_ms": batch1.totalMS,
            "batch_10pct_ms": batch10.totalMS,
            "bytes_per_row": bytesPerRow, "peak_bytes_per_row": peakBytesPerRow, "naive_single_ms": naiveMS,
            "store_save_p50_us": percentile(storeOnly, 0.5), "store_save_p99_us": percentile(storeOnly, 0.99),
            "store_batch_10pct_ms": storeBatch10,
            "raw_batch_1pct_ms": batch1.rawMS, "raw_batch_10pct_ms": batch10.rawMS,
            "controller_batch_1pct_ms": batch1.controllerMS, "controller_batch_10pct_ms": batch10.controllerMS,
            "fetch_raw_ms": fetchRawMS,
            "controller_batch_1pct_per_change_us": batch1.controllerPerChangeUS,
            "controller_batch_1pct_per_change_tenth_rows_us": tenth.controllerPerChangeUS,
            "controller_batch_1pct_cpu_ms": batch1.controllerCPUMS, "controller_batch_10pct_cpu_ms": batch10.controllerCPUMS,
            "controller_batch_1pct_cpu_per_change_us": batch1.controllerCPUPerChangeUS,
            "controller_batch_1pct_cpu_per_change_tenth_rows_us": tenth.controllerCPUPerChangeUS,
        ].merging(relaunch) { $1 }
    }
}
