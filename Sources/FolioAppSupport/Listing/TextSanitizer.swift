/// Makes data safe to print on a terminal: control characters become
/// caret notation (`ESC` → `^[`, `DEL` → `^?`), C1 controls `<U+009B>`-style.
///
/// ```swift
/// TextSanitizer.visible("a\u{1B}[31mb")   // "a^[[31mb"
/// ```
public enum TextSanitizer {
    /// `text` with every control character drawn visibly.
    ///
    /// - Complexity: O(n) in the length of `text`.
    public static func visible(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00..<0x20:
                out.append("^")
                out.append(Unicode.Scalar(UInt8(scalar.value + 0x40)))
            case 0x7F:
                out.append(contentsOf: "^?".unicodeScalars)
            case 0x80..<0xA0:
                out.append(contentsOf: "<U+\(String(scalar.value, radix: 16, uppercase: true))>".unicodeScalars)
            default:
                out.append(scalar)
            }
        }
        return String(out)
    }
}
