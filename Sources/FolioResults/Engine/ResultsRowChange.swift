/// What one object looks like after a batch: in the results with these keys,
/// or not in them. `objectChanged` says whether the object itself changed
/// (false when only a related object that a key reads through changed).
///
/// ```swift
/// let change = ResultsRowChange<Int, String, Int>(id: 1, row: .init(id: 1, key: "Ant", section: 0), objectChanged: true)
/// let gone = ResultsRowChange<Int, String, Int>(id: 2, row: nil, objectChanged: true)
/// ```
package struct ResultsRowChange<ID: Hashable & Comparable & Sendable, Key: Comparable, Section: Hashable & Comparable & Sendable> {
    /// The object's identifier.
    package var id: ID
    /// The object's row now, or nil when it is no longer in the results.
    package var row: ResultsRow<ID, Key, Section>?
    /// True when the object itself changed (reported as an update if it stays).
    package var objectChanged: Bool

    /// Creates a change record.
    ///
    /// ```swift
    /// ResultsRowChange<Int, Int, Int>(id: 3, row: nil, objectChanged: true)
    /// ```
    package init(id: ID, row: ResultsRow<ID, Key, Section>?, objectChanged: Bool) {
        precondition(row == nil || row!.id == id, "ResultsRowChange: row id differs from id \(id)")
        self.id = id
        self.row = row
        self.objectChanged = objectChanged
    }
}
