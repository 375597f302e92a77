/// One member of a result set as the engine sees it: an identifier, a sort
/// key and a section key. Ties between equal keys are broken by the identifier.
///
/// ```swift
/// let row = ResultsRow(id: 12, key: "Lion", section: 3)
/// ```
package struct ResultsRow<ID: Hashable & Comparable & Sendable, Key: Comparable, Section: Hashable & Comparable & Sendable> {
    /// The object's identifier.
    package var id: ID
    /// The full sort key (all sort descriptors' values).
    package var key: Key
    /// The section key (the first sort descriptor's value, or one fixed value).
    package var section: Section

    /// Creates a row.
    ///
    /// ```swift
    /// ResultsRow(id: 1, key: 10, section: 0)
    /// ```
    package init(id: ID, key: Key, section: Section) {
        self.id = id
        self.key = key
        self.section = section
    }
}
