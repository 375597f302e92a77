/// A cell holding an editable line of text, labelled by `textLabel`.
///
/// Editing starts only when the row is selected; the renderer calls
/// `beginEditingText()` then, and `endEditingText(commit:)` on Enter or Esc.
///
/// ```swift
/// let cell = table.dequeueReusableCell(withIdentifier: "Name", for: path) as! TextFieldCell
/// cell.textLabel?.text = "Name"
/// cell.placeholder = "Guide name"
/// cell.onCommit = { guide.name = $0 }
/// ```
@MainActor
open class TextFieldCell: TableViewCell {
    /// The field's current text.
    ///
    /// ```swift
    /// cell.text = guide.name
    /// ```
    public var text = ""
    /// Shown greyed while the text is empty.
    ///
    /// ```swift
    /// cell.placeholder = "Guide name"
    /// ```
    public var placeholder: String?
    /// Whether the field is being edited.
    ///
    /// ```swift
    /// if cell.isEditingText { drawCursor() }
    /// ```
    public private(set) var isEditingText = false
    /// Called with the final text when editing ends with commit.
    ///
    /// ```swift
    /// cell.onCommit = { guide.name = $0 }
    /// ```
    public var onCommit: ((String) -> Void)?
    private var textBeforeEditing = ""

    /// Creates a text-field cell; the style is ignored beyond `textLabel`.
    ///
    /// ```swift
    /// let cell = TextFieldCell(style: .default, reuseIdentifier: "Name")
    /// ```
    public required init(style: Style, reuseIdentifier: String?) {
        super.init(style: style, reuseIdentifier: reuseIdentifier)
    }

    /// Starts editing, remembering the text so that a cancel can restore it.
    ///
    /// ```swift
    /// cell.beginEditingText()
    /// ```
    public func beginEditingText() {
        guard !isEditingText else { return }
        textBeforeEditing = text
        isEditingText = true
    }

    /// Ends editing: `commit: true` keeps the text and calls `onCommit`,
    /// `false` restores the text from before editing.
    ///
    /// ```swift
    /// cell.endEditingText(commit: false)  // Esc
    /// ```
    public func endEditingText(commit: Bool) {
        guard isEditingText else { return }
        isEditingText = false
        if commit {
            onCommit?(text)
        } else {
            text = textBeforeEditing
        }
    }

    /// Ends any edit in progress without committing, and clears the field.
    open override func prepareForReuse() {
        super.prepareForReuse()
        if isEditingText { endEditingText(commit: false) }
        text = ""
        placeholder = nil
        onCommit = nil
    }
}
