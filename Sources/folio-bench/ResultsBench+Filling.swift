import FolioStore

extension ResultsBench {
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
