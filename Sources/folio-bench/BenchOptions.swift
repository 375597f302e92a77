import Foundation

/// The options every suite reads: `--rows N` (underscores allowed, as in
/// `1_000_000`), `--json`, and any value options of the suite's own.
///
///     let options = BenchOptions(arguments, suite: "table", defaultRows: 1_000_000, minimumRows: 1_000)
///     print(options.rows, options.json)
struct BenchOptions {
    var rows: Int
    var json = false
    /// The suite's own value options by name, e.g. `["--repeat": "5"]`.
    var values: [String: String] = [:]

    /// Parses `arguments`; a bad or unknown option ends the process with status 2.
    init(_ arguments: [String], suite: String, defaultRows: Int, minimumRows: Int = 1, valueOptions: Set<String> = []) {
        rows = defaultRows
        var iterator = arguments.makeIterator()
        while let option = iterator.next() {
            switch option {
            case "--rows":
                guard let text = iterator.next(), let value = Int(text.replacingOccurrences(of: "_", with: "")),
                    value >= minimumRows
                else {
                    benchUsageError(suite, "--rows needs a whole number of at least \(minimumRows)")
                }
                rows = value
            case "--json":
                json = true
            case _ where valueOptions.contains(option):
                guard let value = iterator.next() else { benchUsageError(suite, "\(option) needs a value") }
                values[option] = value
            default:
                benchUsageError(suite, "unknown option '\(option)' (usage: folio-bench \(suite) --rows N [--json])")
            }
        }
    }
}

/// Reports a usage error for `suite` on standard error and exits with status 2.
func benchUsageError(_ suite: String, _ message: String) -> Never {
    FileHandle.standardError.write(Data("folio-bench \(suite): \(message)\n".utf8))
    exit(2)
}
