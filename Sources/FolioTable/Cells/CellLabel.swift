/// The text of one of a cell's labels.
///
/// ```swift
/// cell.textLabel?.text = "Mercury"
/// cell.detailTextLabel?.text = "0.39 AU"
/// ```
public struct CellLabel: Hashable, Sendable {
    /// The label's text; nil draws nothing.
    ///
    /// ```swift
    /// cell.textLabel?.text = "Venus"
    /// ```
    public var text: String?

    /// Creates a label: `CellLabel(text: "Mars")`.
    ///
    /// ```swift
    /// let label = CellLabel(text: "Earth")
    /// ```
    public init(text: String? = nil) {
        self.text = text
    }
}
