/// The text of one of a cell's labels.
///
/// ```swift
/// cell.textLabel.text = "Mercury"
/// cell.detailTextLabel?.text = "0.39 AU"
/// ```
public struct CellLabel: Hashable, Sendable {
    /// The label's text; nil draws nothing.
    public var text: String?

    /// Creates a label: `CellLabel(text: "Mars")`.
    public init(text: String? = nil) {
        self.text = text
    }
}
