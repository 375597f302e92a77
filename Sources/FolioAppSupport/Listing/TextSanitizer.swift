import FolioTerminal

/// Makes data safe to print on a terminal: control characters become
/// caret notation (`ESC` → `^[`, `DEL` → `^?`), C1 controls `<9B>`-style,
/// and the marks that reorder text `<U+202E>`-style. It is the terminal
/// kit's one sanitiser (`DisplayText.printable`); `Console` passes every
/// line of output and every error through it.
///
/// ```swift
/// TextSanitizer.visible("a\u{1B}[31mb")   // "a^[[31mb"
/// ```
public enum TextSanitizer {
    /// `text` with every control character and bidi mark drawn visibly.
    ///
    /// - Complexity: O(n) in the length of `text`.
    public static func visible(_ text: String) -> String {
        DisplayText.printable(text)
    }
}
