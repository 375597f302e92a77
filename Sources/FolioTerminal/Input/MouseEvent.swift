/// A mouse event from SGR (1006) reporting, in 0-based cell coordinates.
///
/// ```swift
/// MouseEvent(kind: .press(.left), column: 4, row: 2)
/// MouseEvent(kind: .wheelDown, column: 0, row: 10)
/// ```
public struct MouseEvent: Hashable, Sendable {
    /// What happened.
    public var kind: Kind
    /// The column, from 0.
    public var column: Int
    /// The row, from 0.
    public var row: Int
    /// Modifiers held.
    public var modifiers: Key.Modifiers

    /// Creates a mouse event.
    ///
    /// ```swift
    /// let click = MouseEvent(kind: .press(.left), column: 0, row: 3)
    /// ```
    public init(kind: Kind, column: Int, row: Int, modifiers: Key.Modifiers = []) {
        self.kind = kind
        self.column = column
        self.row = row
        self.modifiers = modifiers
    }

    /// Mouse buttons.
    ///
    /// ```swift
    /// MouseEvent.Button.left
    /// ```
    public enum Button: Hashable, Sendable {
        /// A mouse button.
        case left, middle, right
    }

    /// Press, release, drag (motion with a button held), motion, wheel.
    ///
    /// ```swift
    /// if case .drag(.left) = event.kind { ... }
    /// ```
    public enum Kind: Hashable, Sendable {
        /// A button went down.
        case press(Button)
        /// A button went up (terminals do not say which).
        case release
        /// The pointer moved with a button held.
        case drag(Button)
        /// The pointer moved with no button held.
        case move
        /// One step of the wheel (or a trackpad's scroll).
        case wheelUp, wheelDown, wheelLeft, wheelRight
    }
}
