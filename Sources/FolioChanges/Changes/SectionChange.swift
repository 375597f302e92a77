/// One reported section insert (new index) or delete (old index).
///
/// ```swift
/// let change = SectionChange(type: .insert, index: 2, section: "Mammals")
/// print(change)   // insert section 2 (Mammals)
/// ```
public struct SectionChange<Section: Hashable & Sendable>: Hashable, Sendable, CustomStringConvertible {
    /// `.insert` or `.delete`.
    public var type: ResultsChangeType
    /// The old index for a delete, the new index for an insert.
    public var index: Int
    /// The section's identity (its key, or its name).
    public var section: Section

    /// Creates a section change.
    ///
    /// ```swift
    /// SectionChange(type: .delete, index: 0, section: "A")
    /// ```
    public init(type: ResultsChangeType, index: Int, section: Section) {
        precondition(type == .insert || type == .delete, "SectionChange: sections are only inserted or deleted, not \(type)")
        self.type = type
        self.index = index
        self.section = section
    }

    /// `insert section 2 (Mammals)`.
    ///
    /// ```swift
    /// "\(change)"
    /// ```
    public var description: String { "\(type) section \(index) (\(section))" }
}
