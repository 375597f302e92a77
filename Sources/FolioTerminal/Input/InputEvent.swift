/// One thing the user did, as parsed from the terminal's input bytes.
///
/// ```swift
/// switch event {
/// case .key(let key): print(key.name)
/// case .mouse(let mouse): print(mouse.row)
/// case .paste(let text): print(text)
/// }
/// ```
public enum InputEvent: Hashable, Sendable {
    /// A key press.
    case key(Key)
    /// A mouse press, release, drag or wheel step.
    case mouse(MouseEvent)
    /// Text pasted while bracketed paste was on (never read as keys).
    case paste(String)
}
