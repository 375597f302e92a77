import FolioTerminal

/// Names typed by a user, checked the same way on the command line and in
/// forms: surrounding white space and line breaks are dropped, and what is
/// left must show at least one visible character (not only line breaks,
/// tabs, zero-width joiners or other invisible marks).
///
/// ```swift
/// try TextInput.visible("  Pluto\n", field: "NAME")   // "Pluto"
/// try TextInput.visible("\u{200D}", field: "NAME")     // throws: NAME must have a visible character
/// ```
public enum TextInput {
    /// `text` trimmed; throws ``AppError/invalidValue(option:value:reason:)`` naming `field` when nothing visible is left.
    public static func visible(_ text: String, field: String) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.contains(where: isVisible) else {
            throw AppError.invalidValue(option: field, value: text, reason: "must have a visible character")
        }
        return trimmed
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
