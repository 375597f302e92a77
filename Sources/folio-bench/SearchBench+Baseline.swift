import FolioStore
import Foundation

extension SearchBench {
    /// The same-run baseline of a keystroke: a plain loop over every row's
    /// name, folded beforehand as a search folds it, counting the names that
    /// contain the folded text (`String.contains`). The names are made again
    /// from the seed the store was filled with, in the same order.
    struct PlainFilter {
        let folded: [String]
        let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]

        init(rows n: Int, seed: UInt64) {
            var random = ResultsBench.Random(seed: seed)
            var folded: [String] = []
            folded.reserveCapacity(n)
            for _ in 0..<n {
                // As `run` fills each row: its name, then its group.
                folded.append(StringTextTest.fold(ResultsBench.name(&random), options))
                _ = random.below(100)
            }
            self.folded = folded
        }

        /// How many names contain `text`; every name for an empty text.
        func count(_ text: String) -> Int {
            guard !text.isEmpty else { return folded.count }
            let needle = StringTextTest.fold(text, options)
            var count = 0
            for name in folded where name.contains(needle) { count += 1 }
            return count
        }
    }

    /// The whole process's CPU time (every thread), in ms.
    static func processCPUms() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func ms(_ time: timeval) -> Double { Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000 }
        return ms(usage.ru_utime) + ms(usage.ru_stime)
    }

    /// The one-minute load average, which the wall times depend on.
    static func loadAverage() -> Double {
        var loads = [Double](repeating: 0, count: 3)
        return getloadavg(&loads, 3) > 0 ? loads[0] : -1
    }
}
