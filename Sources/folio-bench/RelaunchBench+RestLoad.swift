import FolioResults
import FolioStore
import FolioTerminal
import Foundation

extension RelaunchBench {
    /// After a relaunch drew its first screen from the cache, at `rows`
    /// rows: the time until the whole order is loaded, and the longest the
    /// main actor was held meanwhile, found by a 1 ms sleep on it that
    /// wakes late (medians of 3).
    static func restLoad(store: String, rows: Int, print shows: Bool) async throws -> [String: Double] {
        let caches = useCaches(beside: store)
        defer { try? FileManager.default.removeItem(at: caches) }
        let request = Self.request
        var frame = Screen(width: 80, height: 24)
        func launch() throws -> (PersistentContainer, FetchedResultsController<ResultsBenchRow>) {
            let container = try PersistentContainer(schema: Schema([ResultsBenchRow.self]), path: store)
            let results = FetchedResultsController(
                fetchRequest: request, managedObjectContext: container.viewContext,
                sectionNameKeyPath: \ResultsBenchRow.group, cacheName: "rest")
            let screen = try RelaunchBenchScreen(title: "Rows", results: results)
            screen.viewWillAppear()
            screen.draw(into: &frame, in: Rect(x: 0, y: 0, width: 80, height: 24))
            return (container, results)
        }
        _ = try launch()  // writes the cache
        var rest: [Double] = [], turns: [Double] = []
        for _ in 0..<3 {
            let (container, results) = try launch()
            guard results.lastFetchUsedCache, results.isReadingCachedOrder else {
                ResultsBench.fail("the relaunch at \(rows) rows did not draw from its cache", suite: "relaunch")
            }
            let start = ResultsBench.now()
            var longest = 0.0
            while results.isReadingCachedOrder {
                let before = ResultsBench.now()
                try await Task.sleep(for: .milliseconds(1))
                longest = max(longest, Double(ResultsBench.now() - before) / 1_000_000 - 1)
            }
            rest.append(Double(ResultsBench.now() - start) / 1_000_000)
            turns.append(longest)
            guard results.lastFetchUsedCache, results.sections?.reduce(0, { $0 + $1.numberOfObjects }) == rows else {
                ResultsBench.fail("the relaunch at \(rows) rows did not load its cached order", suite: "relaunch")
            }
            withExtendedLifetime(container) {}
        }
        let restMS = ResultsBench.percentile(rest, 0.5), turnMS = ResultsBench.percentile(turns, 0.5)
        if shows {
            Swift.print(
                "relaunch    rows \(rows): the rest of the order loaded \(ResultsBench.format(restMS)) ms after the first screen; "
                    + "the main actor held at most \(ResultsBench.format(turnMS)) ms at a time meanwhile")
        }
        return ["relaunch_rest_ms": restMS, "relaunch_longest_turn_ms": turnMS]
    }
}
