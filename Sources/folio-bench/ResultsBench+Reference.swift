import FolioResults
import FolioStore
import Foundation

extension ResultsBench {
    /// The controller's share of a 1% save, a change at a time, at `rows`
    /// rows in a store of its own: the reference that shows whether the
    /// share grows with n (the target: at most 1.5× from n/10 to n).
    @MainActor
    static func referenceShare(rows n: Int, sections: Int, random: inout Random) throws -> BulkSave {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-reference-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = try PersistentContainer(
            schema: Schema([ResultsBenchRow.self]), path: directory.appendingPathComponent("reference.sqlite").path)
        let context = container.viewContext
        context.undoManager = nil
        try fill(context, rows: n, random: &random) { random in
            let row = ResultsBenchRow(context: context)
            row.name = name(&random)
            row.group = random.below(sections)
        }
        var request = FetchRequest<ResultsBenchRow>(sortBy: [SortDescriptor(\.group), SortDescriptor(\.name)])
        request.fetchBatchSize = 20
        let controller = FetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: \ResultsBenchRow.group)
        let delegate = ResultsBenchDelegate()
        controller.delegate = delegate
        try controller.performFetch()
        // As many saves as at the full size, and their medians.
        let saves = try (0..<bulkSaves).map { _ in
            let ids = controller.snapshot().itemIdentifiers.flatMap { $0 }
            let picked = Set((0..<max(1, n / 100)).map { _ in ids[random.below(ids.count)] })
            let rows = try context.objects(with: Array(picked), as: ResultsBenchRow.self)
            return try bulkSave(rows, context: context, delegate: delegate, sections: sections, random: &random)
        }
        withExtendedLifetime(controller) {}
        return BulkSave.median(of: saves)
    }
}
