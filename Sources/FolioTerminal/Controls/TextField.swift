/// The editing state of a one-line text field: text, cursor, placeholder.
///
/// Editing starts only when asked (`beginEditing`, when its row is selected);
/// while editing, printable keys and paste type at the cursor, Left/Right,
/// Home/End move, Backspace and Delete erase, Enter ends editing keeping the
/// text, Esc ends it restoring the text from before.
/// ```swift
/// var field = TextField(text: "Zerg", placeholder: "Name")
/// field.beginEditing()
/// field.handle(.key(Key(.backspace)))  // "Zer"
/// field.handle(.key(Key(.enter)))      // .ended(commit: true)
/// ```
public struct TextField: Hashable, Sendable {
    /// The text.
    public private(set) var text: String
    /// Shown dim when the text is empty.
    public var placeholder: String
    /// Whether keys go to the field.
    public private(set) var isEditing = false
    /// The cursor, in graphemes from the start.
    public private(set) var cursor: Int
    private var original = ""

    /// Creates a field, not editing.
    ///
    /// ```swift
    /// let field = TextField(text: "", placeholder: "Description")
    /// ```
    public init(text: String = "", placeholder: String = "") {
        self.text = text
        self.placeholder = placeholder
        self.cursor = text.count
    }

    /// What a key did.
    ///
    /// ```swift
    /// if case .ended(let commit) = field.handle(event) { ... }
    /// ```
    public enum Outcome: Hashable, Sendable {
        /// Not a key for the field (it is not editing, or the key does nothing here).
        case ignored
        /// The text or cursor changed, or the key was swallowed.
        case edited
        /// Editing ended; `commit` is false when Esc restored the old text.
        case ended(commit: Bool)
    }

    /// Starts editing with the cursor at the end.
    ///
    /// ```swift
    /// field.beginEditing()
    /// ```
    public mutating func beginEditing() {
        guard !isEditing else { return }
        isEditing = true
        original = text
        cursor = text.count
    }

    /// Ends editing; `commit: false` restores the text from before.
    ///
    /// ```swift
    /// field.endEditing(commit: false)
    /// ```
    public mutating func endEditing(commit: Bool) {
        guard isEditing else { return }
        isEditing = false
        if !commit { text = original }
        cursor = text.count
    }

    /// Replaces the text (not while editing: the user's typing wins).
    ///
    /// ```swift
    /// field.setText("Terran")
    /// ```
    public mutating func setText(_ newText: String) {
        guard !isEditing else { return }
        text = newText
        cursor = text.count
    }

    /// Applies a key or paste while editing.
    ///
    /// - Complexity: O(n) in the text's length.
    /// ```swift
    /// field.handle(.key(Key(.character("a"))))
    /// ```
    @discardableResult
    public mutating func handle(_ event: InputEvent) -> Outcome {
        guard isEditing else { return .ignored }
        switch event {
        case .paste(let pasted):
            // Pasted line breaks and tabs become spaces: the field has one line.
            insert(String(pasted.map { $0.isNewline || $0 == "\t" ? " " : $0 }))
            return .edited
        case .mouse:
            return .ignored
        case .key(let key):
            return handle(key)
        }
    }

    private mutating func handle(_ key: Key) -> Outcome {
        switch key.code {
        case .enter: endEditing(commit: true); return .ended(commit: true)
        case .escape: endEditing(commit: false); return .ended(commit: false)
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(text.count, cursor + 1)
        case .home: cursor = 0
        case .end: cursor = text.count
        case .backspace:
            guard cursor > 0 else { return .edited }
            let index = text.index(text.startIndex, offsetBy: cursor - 1)
            text.remove(at: index)
            cursor -= 1
        case .delete:
            guard cursor < text.count else { return .edited }
            text.remove(at: text.index(text.startIndex, offsetBy: cursor))
        case .character(let character) where key.modifiers.isSubset(of: .shift):
            insert(String(character))
        case .character("a") where key.modifiers == .control: cursor = 0
        case .character("e") where key.modifiers == .control: cursor = text.count
        case .character("u") where key.modifiers == .control:
            text.removeSubrange(text.startIndex..<text.index(text.startIndex, offsetBy: cursor))
            cursor = 0
        case .up, .down, .tab, .backTab, .pageUp, .pageDown:
            return .ignored
        default:
            break
        }
        return .edited
    }

    private mutating func insert(_ typed: String) {
        // Controls are kept out of the data itself, not only out of the display.
        let clean = String(typed.filter { !$0.unicodeScalars.contains(where: DisplayText.isControl) })
        let index = text.index(text.startIndex, offsetBy: cursor)
        let before = text.count
        text.insert(contentsOf: clean, at: index)
        cursor += text.count - before
    }

    /// Draws the field in a one-row rectangle: the text (or the placeholder,
    /// dim), scrolled so that the cursor shows; the cursor is a reverse cell.
    ///
    /// - Complexity: O(n) in the text's length.
    /// ```swift
    /// field.draw(into: &screen, in: Rect(x: 20, y: 4, width: 30, height: 1))
    /// ```
    public func draw(into screen: inout Screen, in rect: Rect, style: Style = .plain, placeholderStyle: Style = Style(attributes: .dim)) {
        guard rect.width > 0, rect.height > 0 else { return }
        if text.isEmpty && !isEditing {
            screen.draw(placeholder, at: rect.x, row: rect.y, style: placeholderStyle, maxWidth: rect.width)
            return
        }
        guard isEditing else {
            screen.draw(text, at: rect.x, row: rect.y, style: style, maxWidth: rect.width)
            return
        }
        // Show the graphemes that end at the cursor, leaving a column for it.
        let graphemes = Array(text)
        var start = cursor
        var used = 1
        while start > 0 {
            let width = DisplayWidth.of(graphemes[start - 1])
            if used + width > rect.width { break }
            used += width
            start -= 1
        }
        var x = rect.x
        if text.isEmpty {
            screen.draw(placeholder, at: rect.x + 1, row: rect.y, style: placeholderStyle, maxWidth: rect.width - 1)
        }
        for index in start..<graphemes.count {
            let visible = DisplayText.visible(String(graphemes[index]))
            let width = DisplayWidth.of(visible)
            guard x + width <= rect.maxX else { break }
            let cellStyle = index == cursor ? style.adding(.reverse) : style
            screen.draw(visible, at: x, row: rect.y, style: cellStyle, maxWidth: rect.maxX - x)
            x += width
        }
        if cursor == graphemes.count, x < rect.maxX {
            screen.draw(" ", at: x, row: rect.y, style: style.adding(.reverse))
        }
    }
}
