/// A small command-line reader: take options, flags and positionals in any
/// order, then `finish()` to reject whatever is left.
///
/// Options take `--name value` or `--name=value`; a value may start with `-`
/// (so `--longitude -122.4` works). `--` ends the options.
///
/// ```swift
/// var args = Arguments(["add", "--store", "/tmp/p.sqlite", "Pluto"])
/// let store = try args.option("--store")      // "/tmp/p.sqlite"
/// let verb = args.nextPositional()            // "add"
/// let name = try args.positional("NAME")      // "Pluto"
/// try args.finish()
/// ```
public struct Arguments: Sendable {
    /// The tokens not consumed yet, in order.
    public private(set) var remaining: [String]
    /// Options known to take a value: the token after one is never a positional.
    public var valueOptions: Set<String>

    /// Reads `tokens` (without the program name); `valueOptions` names the
    /// options that take a value, so `--store x planets` finds `planets`.
    public init(_ tokens: [String], valueOptions: Set<String> = []) {
        remaining = tokens
        self.valueOptions = valueOptions
    }

    /// Whether `--help` or `-h` is present (before any `--`).
    public var wantsHelp: Bool {
        optionTokens.contains { $0 == "--help" || $0 == "-h" }
    }

    /// Removes every occurrence of flag `name` and says whether there was one.
    ///
    /// - Complexity: O(n) in the remaining tokens.
    public mutating func flag(_ name: String) -> Bool {
        let end = optionsEnd
        let before = remaining[..<end].count
        var head = Array(remaining[..<end])
        head.removeAll { $0 == name }
        let found = head.count != before
        remaining = head + remaining[end...]
        return found
    }

    /// Removes option `name` with its value and returns the value (the last
    /// one wins when it is given twice), or nil when absent.
    ///
    /// Throws ``AppError/usage(message:)`` when the value is missing.
    public mutating func option(_ name: String) throws -> String? {
        var value: String?
        var index = 0
        while index < optionsEnd {
            let token = remaining[index]
            if token == name {
                guard index + 1 < remaining.count, remaining[index + 1] != "--" else {
                    throw AppError.usage(message: "missing value for \(name)")
                }
                value = remaining[index + 1]
                remaining.removeSubrange(index...index + 1)
            } else if token.hasPrefix(name + "=") {
                value = String(token.dropFirst(name.count + 1))
                remaining.remove(at: index)
            } else {
                index += 1
            }
        }
        return value
    }

    /// Like ``option(_:)`` but the option must be there.
    public mutating func requiredOption(_ name: String) throws -> String {
        guard let value = try option(name) else {
            throw AppError.usage(message: "missing required option \(name)")
        }
        return value
    }

    /// Removes and returns the first positional (a token not starting with
    /// `-`, or anything after `--`), or nil when there is none.
    public mutating func nextPositional() -> String? {
        var index = 0
        var afterDashes = false
        while index < remaining.count {
            let token = remaining[index]
            if token == "--" && !afterDashes {
                afterDashes = true
                index += 1
                continue
            }
            if !afterDashes && valueOptions.contains(token) {
                index += 2
                continue
            }
            if afterDashes || !token.hasPrefix("-") || token == "-" || Self.isNegativeNumber(token) {
                remaining.remove(at: index)
                dropDashesIfEmpty()
                return token
            }
            index += 1
        }
        return nil
    }

    /// Removes and returns the first positional; throws a usage error naming
    /// `label` when there is none.
    public mutating func positional(_ label: String) throws -> String {
        guard let value = nextPositional() else {
            throw AppError.usage(message: "missing \(label)")
        }
        return value
    }

    /// Throws a usage error naming the first token nobody consumed.
    public func finish() throws {
        guard let first = remaining.first(where: { $0 != "--" }) else { return }
        if first.hasPrefix("-") && first != "-" && !Self.isNegativeNumber(first) {
            throw AppError.usage(message: "unknown option '\(AppError.shown(first))'")
        }
        throw AppError.usage(message: "unexpected argument '\(AppError.shown(first))'")
    }

    /// "-5" or "-0.5": a value (an ID, a coordinate), not an option.
    static func isNegativeNumber(_ token: String) -> Bool {
        let rest = token.dropFirst()
        return token.hasPrefix("-") && !rest.isEmpty && rest.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
    }

    private var optionsEnd: Int {
        remaining.firstIndex(of: "--") ?? remaining.count
    }

    private var optionTokens: ArraySlice<String> {
        remaining[..<optionsEnd]
    }

    private mutating func dropDashesIfEmpty() {
        if let dashes = remaining.firstIndex(of: "--"), dashes == remaining.count - 1 {
            remaining.removeLast()
        }
    }
}
