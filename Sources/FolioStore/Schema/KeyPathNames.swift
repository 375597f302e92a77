/// Splits a key path's printed form into one token per component
/// (`\Animal.<computed 0x… (Optional<Classification>)>?.<computed 0x… (String)>?`
/// → two tokens, `?` and `!` removed). A computed property's token names its
/// getter, which is the same in every module of the process, so a composed key
/// path from a `SortDescriptor` can be matched against the tokens of the
/// entities' own key paths. Results are cached per key path.
enum KeyPathNames {
    private static let lock = NSLockBox()
    nonisolated(unsafe) private static var cache: [AnyKeyPath: [String]] = [:]

    /// The components after the root type, as tokens.
    static func components(of keyPath: AnyKeyPath) -> [String] {
        if let hit = lock.with({ cache[keyPath] }) { return hit }
        var text = String(describing: keyPath)
        if text.hasPrefix("\\") { text.removeFirst() }
        var parts: [String] = []
        var current = ""
        var depth = 0
        for ch in text {
            switch ch {
            case "<", "(": depth += 1; current.append(ch)
            case ">", ")": depth -= 1; current.append(ch)
            case "." where depth == 0: parts.append(current); current = ""
            default: current.append(ch)
            }
        }
        parts.append(current)
        let tokens = parts.map { part in
            var p = Substring(part)
            while let last = p.last, last == "?" || last == "!" { p = p.dropLast() }
            return String(p)
        }
        lock.with { cache[keyPath] = tokens }
        return tokens
    }

    /// The token of a single-component key path.
    static func token(of keyPath: AnyKeyPath) -> String {
        components(of: keyPath).last ?? ""
    }
}
