/// The editing state of a one-line text field: text, cursor, placeholder,
/// and a maximum length.
///
/// Editing starts only when asked (`beginEditing`, when its row is selected);
/// while editing, printable keys and paste type at the cursor, Left/Right,
/// Home/End move, Backspace and Delete erase, Enter ends editing keeping the
/// text, Esc ends it restoring the text from before. The text is kept as an
/// array of characters, so typing or pasting n characters costs O(n), and
/// text beyond `maximumLength` is not taken (`lastInputWasCut` says so).
/// ```swift
/// var field = TextField(text: "Zerg", placeholder: "Name")
/// field.beginEditing()
/// field.handle(.key(Key(.backspace)))  // "Zer"
/// field.handle(.key(Key(.enter)))      // .ended(commit: true)
/// ```
public struct TextField: Hashable, Sendable {
    /// The largest number of characters a field holds unless told otherwise.
    public static let defaultMaximumLength = 500

    /// The text.
    ///
    /// - Complexity: O(n) in its length (it is assembled from the characters).
    public var text: String { String(characters) }
    /// Shown dim when the text is empty.
    public var placeholder: String
    /// The most characters the field takes; typing or pasting past it is cut.
    public var maximumLength: Int
    /// Whether keys go to the field.
    public private(set) var isEditing = false
    /// The cursor, in characters from the start.
    public private(set) var cursor: Int
    /// Whether the last key or paste was cut at `maximumLength`.
    public private(set) var lastInputWasCut = false
    private var characters: [Character]
    private var original: [Character] = []

    /// Creates a field, not editing.
    ///
    /// ```swift
    /// let field = TextField(text: "", placeholder: "Description")
    /// ```
    public init(text: String = "", placeholder: String = "", maximumLength: Int = TextField.defaultMaximumLength) {
        characters = Array(text)
        self.placeholder = placeholder
        self.maximumLength = maximumLength
        cursor = characters.count
    }

    /// The number of characters.
    public var count: Int { characters.count }

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
        original = characters
        cursor = characters.count
    }

    /// Ends editing; `commit: false` restores the text from before.
    ///
    /// ```swift
    /// field.endEditing(commit: false)
    /// ```
    public mutating func endEditing(commit: Bool) {
        guard isEditing else { return }
        isEditing = false
        if !commit { characters = original }
        original = []
        cursor = characters.count
    }

    /// Replaces the text (not while editing: the user's typing wins).
    ///
    /// ```swift
    /// field.setText("Terran")
    /// ```
    public mutating func setText(_ newText: String) {
        guard !isEditing else { return }
        characters = Array(newText)
        cursor = characters.count
    }

    /// Applies a key or paste while editing.
    ///
    /// - Complexity: O(k + n − cursor) for k characters typed or pasted:
    ///   typing at the end costs O(k).
    /// ```swift
    /// field.handle(.key(Key(.character("a"))))
    /// ```
    @discardableResult
    public mutating func handle(_ event: InputEvent) -> Outcome {
        guard isEditing else { return .ignored }
        lastInputWasCut = false
        switch event {
        case .paste(let pasted):
            // Pasted line breaks and tabs become spaces: the field has one line.
            insert(pasted.lazy.map { $0.isNewline || $0 == "\t" ? " " : $0 })
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
        case .right: cursor = min(characters.count, cursor + 1)
        case .home: cursor = 0
        case .end: cursor = characters.count
        case .backspace:
            guard cursor > 0 else { return .edited }
            characters.remove(at: cursor - 1)
            cursor -= 1
        case .delete:
            guard cursor < characters.count else { return .edited }
            characters.remove(at: cursor)
        case .character(let character) where key.modifiers.isSubset(of: .shift):
            insert(CollectionOfOne(character))
        case .character("a") where key.modifiers == .control: cursor = 0
        case .character("e") where key.modifiers == .control: cursor = characters.count
        case .character("u") where key.modifiers == .control:
            characters.removeSubrange(0..<cursor)
            cursor = 0
        case .up, .down, .tab, .backTab, .pageUp, .pageDown:
            return .ignored
        default:
            break
        }
        return .edited
    }

    private mutating func insert<Typed: Sequence<Character>>(_ typed: Typed) {
        // Controls are kept out of the data itself, not only out of the display.
        var clean: [Character] = []
        let room = maximumLength - characters.count
        for character in typed where !character.unicodeScalars.contains(where: DisplayText.isControl) {
            guard clean.count < room else {
                lastInputWasCut = true
                break
            }
            clean.append(character)
        }
        guard !clean.isEmpty else { return }
        // A combining mark (or joiner) typed on its own joins the character before.
        if cursor > 0, let first = clean.first, let scalar = first.unicodeScalars.first, !scalar.isASCII {
            let joined = String(characters[cursor - 1]) + String(first)
            if joined.count == 1 {
                characters[cursor - 1] = Character(joined)
                clean.removeFirst()
            }
        }
        if cursor == characters.count {
            characters.append(contentsOf: clean)
        } else {
            characters.insert(contentsOf: clean, at: cursor)
        }
        cursor += clean.count
    }

    /// Draws the field in a one-row rectangle: the text (or the placeholder,
    /// dim), scrolled so that the cursor shows; the cursor is a reverse cell.
    ///
    /// - Complexity: O(visible characters), whatever the text's length.
    /// ```swift
    /// field.draw(into: &screen, in: Rect(x: 20, y: 4, width: 30, height: 1))
    /// ```
    public func draw(into screen: inout Screen, in rect: Rect, style: Style = .plain, placeholderStyle: Style = Style(attributes: .dim)) {
        guard rect.width > 0, rect.height > 0 else { return }
        if characters.isEmpty && !isEditing {
            screen.draw(placeholder, at: rect.x, row: rect.y, style: placeholderStyle, maxWidth: rect.width)
            return
        }
        guard isEditing else {
            // The visible start only: never more characters than columns.
            screen.draw(String(characters.prefix(rect.width + 1)), at: rect.x, row: rect.y, style: style, maxWidth: rect.width)
            return
        }
        // Show the characters that end at the cursor, leaving a column for it.
        var start = cursor
        var used = 1
        while start > 0 {
            let width = DisplayWidth.of(characters[start - 1])
            if used + width > rect.width { break }
            used += width
            start -= 1
        }
        var x = rect.x
        if characters.isEmpty {
            screen.draw(placeholder, at: rect.x + 1, row: rect.y, style: placeholderStyle, maxWidth: rect.width - 1)
        }
        for index in start..<characters.count {
            let visible = DisplayText.visible(String(characters[index]))
            let width = DisplayWidth.of(visible)
            guard x + width <= rect.maxX else { break }
            let cellStyle = index == cursor ? style.adding(.reverse) : style
            screen.draw(visible, at: x, row: rect.y, style: cellStyle, maxWidth: rect.maxX - x)
            x += width
        }
        if cursor == characters.count, x < rect.maxX {
            screen.draw(" ", at: x, row: rect.y, style: style.adding(.reverse))
        }
    }
}
