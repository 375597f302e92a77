import FolioTerminal

/// Text typed by a user, checked the same way on the command line and in
/// forms: at most ``maximumLength`` characters (what a form's field
/// holds); a name also loses surrounding white space and line breaks, and
/// what is left must show at least one visible character (not only line
/// breaks, tabs, zero-width joiners or other invisible marks).
///
/// ```swift
/// try TextInput.visible("  Pluto\n", field: "NAME")   // "Pluto"
/// try TextInput.visible("\u{200D}", field: "NAME")     // throws: NAME must have a visible character
/// try TextInput.limited(String(repeating: "a", count: 501), field: "--habitat")   // throws: at most 500
/// ```
public enum TextInput {
    /// The most characters a value holds, on the command line as in a form's field.
    public static let maximumLength = TextField.defaultMaximumLength

    /// How many characters of a user's text a message quotes before "…".
    public static let quotedLength = 60

    /// `text` trimmed; throws ``AppError/invalidValue(option:value:reason:)``
    /// naming `field` when nothing visible is left or it is too long.
    public static func visible(_ text: String, field: String) throws -> String {
        // Most text has nothing to trim: Foundation's trimming is skipped then.
        let untrimmed = text.unicodeScalars.first.map(isPlainVisible) == true && text.unicodeScalars.last.map(isPlainVisible) == true
        let trimmed = try limited(untrimmed ? text : text.trimmingCharacters(in: .whitespacesAndNewlines), field: field)
        // Text that starts with a printable ASCII character shows it.
        guard untrimmed || trimmed.contains(where: isVisible) else {
            throw AppError.invalidValue(option: field, value: text, reason: "must have a visible character")
        }
        return trimmed
    }

    /// `text` as it is; throws ``AppError/invalidValue(option:value:reason:)``
    /// naming `field` when it has more than ``maximumLength`` characters.
    public static func limited(_ text: String, field: String) throws -> String {
        // No more bytes than the limit: no more characters either, without counting them.
        guard text.utf8.count > maximumLength else { return text }
        let count = text.count
        guard count <= maximumLength else {
            throw AppError.invalidValue(
                option: field, value: text,
                reason: "is \(count) characters long; at most \(maximumLength) are allowed")
        }
        return text
    }

    /// `text` as a message quotes it: cut to `length` characters, with "…" when cut.
    ///
    /// ```swift
    /// TextInput.shortened(String(repeating: "a", count: 100))   // 60 a's and "…"
    /// ```
    public static func shortened(_ text: String, to length: Int = quotedLength) -> String {
        guard let end = text.index(text.startIndex, offsetBy: length, limitedBy: text.endIndex), end < text.endIndex else { return text }
        return String(text[..<end]) + "…"
    }

    /// A printable ASCII character other than the space: neither trimmed nor invisible.
    private static func isPlainVisible(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value > 0x20 && scalar.value < 0x7F
    }

    /// Whether a character draws something: not white space, not a control
    /// or format character, and at least one column wide.
    public static func isVisible(_ character: Character) -> Bool {
        guard !character.isWhitespace, DisplayWidth.of(character) > 0 else { return false }
        return !character.unicodeScalars.allSatisfy { scalar in
            scalar.properties.generalCategory == .format || scalar.properties.generalCategory == .control
                || scalar.properties.isDefaultIgnorableCodePoint
        }
    }
}
