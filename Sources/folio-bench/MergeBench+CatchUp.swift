import FolioStore
import Foundation

/// How long a context behind by many saves takes to fold what waits for it
/// into one change set per origin: each of `counts` waiting one-insert
/// saves (with their heard rows), timed per save, and the ratio of the
/// largest count's cost per save to the smallest's (near 1: the fold grows
/// with the saves; folding by copying grew with their square).
enum MergeCatchUp {
    static let counts = [1_000, 10_000, 50_000]

    /// Microseconds per waiting save, for each count (the best of three runs).
    static func run() -> [(count: Int, microseconds: Double)] {
        counts.map { count in
            let best = (0..<3).map { _ in
                let waiting = WaitingMerges()
                for n in 0..<count {
                    let id = ObjectID(entityName: "BenchItem", rowID: Int64(n + 1))
                    _ = waiting.add(ChangeSet(inserted: [id], origin: .otherProcess), HeardRows())
                }
                let start = DispatchTime.now().uptimeNanoseconds
                let folded = waiting.takeAll()
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
                precondition(folded.count == 1 && folded[0].changes.inserted.count == count, "the saves did not fold into one")
                return elapsed
            }.min()!
            return (count, best / Double(count))
        }
    }

    static func report(json: Bool) {
        let results = run()
        let ratio = results.last!.microseconds / results.first!.microseconds
        print("catch-up: folding the saves that waited for a context into one change set")
        for (count, microseconds) in results {
            print(String(format: "%7d waiting saves   %8.3f µs a save", count, microseconds))
        }
        print(
            String(
                format: "ratio of the cost a save at %d to at %d %5.2fx (target: near 1)", results.last!.count, results.first!.count, ratio)
        )
        if json {
            let fields = results.map { String(format: "\"fold_%d_us_per_save\": %.4f", $0.count, $0.microseconds) }
            print("{" + (fields + [String(format: "\"fold_ratio\": %.3f", ratio)]).joined(separator: ", ") + "}")
        }
    }
}
