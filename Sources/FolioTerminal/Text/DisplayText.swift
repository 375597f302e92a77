/// Turns text from data or arguments into graphemes that are safe to draw.
///
/// Nothing from data reaches the terminal raw: control characters become
/// caret notation ("^[" for ESC, "^J" for a newline, "^?" for DEL), C1
/// controls become "<9B>", bidirectional and other format controls become
/// "�", and a combining mark with no base is drawn on a dotted circle "◌".
/// ```swift
/// DisplayText.visible("a\u{1B}[31mb") // "a^[[31mb"
/// DisplayText.truncate("Hello, world", toWidth: 8) // "Hello, …"
/// ```
public enum DisplayText {
    /// The ellipsis that marks truncated text.
    public static let ellipsis = "…"

    /// One-character strings for every ASCII byte, made once.
    static let asciiStrings: [String] = (0..<128).map { String(UnicodeScalar(UInt8($0))) }

    /// The string as it is drawn: every control made visible.
    ///
    /// - Complexity: O(n) in the string's length.
    /// ```swift
    /// DisplayText.visible("tab\there") // "tab^Ihere"
    /// ```
    public static func visible(_ string: String) -> String {
        var out = ""
        out.reserveCapacity(string.utf8.count)
        forEachGrapheme(in: string) { text, _ in
            out += text
            return true
        }
        return out
    }

    /// The string cut to at most `width` columns, ending in "…" when cut, and
    /// only ever at a grapheme boundary (a wide grapheme that would straddle
    /// the edge is left out whole).
    ///
    /// - Complexity: O(min(n, width)) graphemes examined.
    /// ```swift
    /// DisplayText.truncate("日本語テキスト", toWidth: 7) // "日本語…"
    /// ```
    public static func truncate(_ string: String, toWidth width: Int) -> String {
        var out = ""
        forEachFitting(string, width: width) { text, _ in out += text }
        return out
    }

    /// Calls `body` with each grapheme of the visible form of `string` that
    /// fits in `width` columns, ending with "…" when the text is cut.
    /// Returns the columns used.
    ///
    /// - Complexity: O(min(n, width)) graphemes examined.
    /// ```swift
    /// DisplayText.forEachFitting("abcdef", width: 4) { text, _ in print(text) } // a b c …
    /// ```
    @discardableResult
    public static func forEachFitting(_ string: String, width: Int, _ body: (String, Int) -> Void) -> Int {
        guard width > 0 else { return 0 }
        // Printable ASCII, the common case: one column per byte, no grapheme breaking.
        if string.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            let count = string.utf8.count
            let limit = count <= width ? count : width - 1
            for byte in string.utf8.prefix(limit) { body(asciiStrings[Int(byte)], 1) }
            if count > width { body(ellipsis, 1) }
            return min(count, width)
        }
        // First pass: does it fit? Stops as soon as it is known not to.
        var total = 0
        var fits = true
        forEachGrapheme(in: string) { _, w in
            total += w
            if total > width { fits = false }
            return fits
        }
        var used = 0
        let limit = fits ? width : width - 1
        forEachGrapheme(in: string) { text, w in
            guard used + w <= limit else { return false }
            body(text, w)
            used += w
            return true
        }
        if !fits {
            body(ellipsis, 1)
            used += 1
        }
        return used
    }

    /// Calls `body` with each visible grapheme of `string` and its width,
    /// until `body` returns `false`.
    ///
    /// - Complexity: O(n) in the string's length.
    /// ```swift
    /// DisplayText.forEachGrapheme(in: "語a") { text, width in print(text, width); return true }
    /// ```
    public static func forEachGrapheme(in string: String, _ body: (String, Int) -> Bool) {
        for character in string {
            if let ascii = character.asciiValue, ascii >= 0x20, ascii < 0x7F {
                if !body(String(character), 1) { return }
                continue
            }
            if !forEachVisible(character, body) { return }
        }
    }

    /// The slow path for one non-printable-ASCII grapheme.
    private static func forEachVisible(_ character: Character, _ body: (String, Int) -> Bool) -> Bool {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return true }
        if isControl(first) {
            for scalar in scalars {
                for part in controlPicture(scalar) where !body(String(part), 1) {
                    return false
                }
            }
            return true
        }
        let width = DisplayWidth.of(character)
        if width > 0 { return body(String(character), width) }
        switch first.value {
        case 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF:
            return true  // invisible joiners and spaces: harmless, drawn as nothing
        default:
            if first.properties.generalCategory == .format || scalars.count == 1 && !isMark(first) {
                return body("\u{FFFD}", 1)
            }
            return body("\u{25CC}" + String(character), 1)
        }
    }

    /// Text made safe to print on a terminal outside the UI (a command's
    /// output or errors): controls as `^[`-style pictures (`<9B>` for C1),
    /// and the marks that reorder text (bidi overrides, embeddings,
    /// isolates, LRM/RLM/ALM) as `<U+202E>`. Everything else is kept, joiners
    /// of emoji sequences too. The one sanitiser of user data for the
    /// terminal: the UI draws through `visible`, commands print through this.
    ///
    /// - Complexity: O(n) in the string's length.
    /// ```swift
    /// DisplayText.printable("a\u{1B}]0;x\u{07}")   // "a^[]0;x^G"
    /// DisplayText.printable("abc\u{202E}fed")       // "abc<U+202E>fed"
    /// ```
    public static func printable(_ string: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in string.unicodeScalars {
            if isControl(scalar) {
                out.append(contentsOf: controlPicture(scalar).unicodeScalars)
            } else if isBidiMark(scalar) {
                out.append(contentsOf: "<U+\(String(scalar.value, radix: 16, uppercase: true))>".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// The invisible marks that change the order text is shown in.
    ///
    /// ```swift
    /// DisplayText.isBidiMark("\u{202E}")   // true
    /// ```
    public static func isBidiMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark: return true
        default: return false
        }
    }

    /// Caret notation for C0 controls and DEL, hex for C1 and line separators.
    private static func controlPicture(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x7F: return "^?"
        case ..<0x20: return "^" + String(UnicodeScalar(UInt8(scalar.value + 0x40)))
        case 0x2028: return "<LS>"
        case 0x2029: return "<PS>"
        default:
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "<" + hex + ">"
        }
    }
}
