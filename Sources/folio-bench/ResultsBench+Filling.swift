import FolioStore
import Foundation

extension ResultsBench {
    /// A new store in a directory of its own (which the caller removes),
    /// its view context filled with `settings.rows` named rows in `settings.sections` groups.
    @MainActor
    static func filledStore(_ name: String, _ settings: Settings, _ random: inout Random) throws -> (
        directory: URL, container: PersistentContainer
    ) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-\(name)-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            let container = try PersistentContainer(
                schema: Schema([ResultsBenchRow.self]), path: directory.appendingPathComponent("bench.sqlite").path)
            let context = container.viewContext
            context.undoManager = nil
            try fill(context, rows: settings.rows, random: &random) { random in
                let row = ResultsBenchRow(context: context)
                row.name = Self.name(&random)
                row.group = random.below(settings.sections)
            }
            return (directory, container)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Fills a store with `rows` objects, one `makeRow` call each, saving
    /// every 50,000 (the results and search suites share it).
    ///
    ///     try ResultsBench.fill(context, rows: 100_000, random: &random) { random in
    ///         let row = ResultsBenchRow(context: context)
    ///         row.name = ResultsBench.name(&random)
    ///     }
    @MainActor
    static func fill(_ context: ObjectContext, rows n: Int, random: inout Random, _ makeRow: (inout Random) -> Void) throws {
        var inserted = 0
        while inserted < n {
            let chunk = min(50_000, n - inserted)
            for _ in 0..<chunk { makeRow(&random) }
            try context.save()
            inserted += chunk
        }
    }
}
