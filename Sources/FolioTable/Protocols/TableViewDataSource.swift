/// Supplies a table's sections, rows and cells (UIKit's data source role).
///
/// Only the row count and the cell are required; everything else has a
/// default in the extension below.
///
/// ```swift
/// final class Planets: TableViewDataSource {
///     var names = ["Mercury", "Venus"]
///     func tableView(_ t: TableView, numberOfRowsInSection s: Int) -> Int { names.count }
///     func tableView(_ t: TableView, cellForRowAt p: IndexPath) -> TableViewCell {
///         let cell = t.dequeueReusableCell(withIdentifier: "Planet", for: p)
///         cell.textLabel?.text = names[p.row]
///         return cell
///     }
/// }
/// ```
@MainActor
public protocol TableViewDataSource: AnyObject {
    /// What `tableView(_:commit:forRowAt:)` takes: inferred as
    /// `TableViewCell.EditingStyle` from a data source that writes the method
    /// (which is then offered swipe-to-delete, as UIKit offers it to a data
    /// source that implements it), ``NoEditingCommits`` when it does not.
    /// Never written by hand.
    associatedtype CommitEditingStyle = NoEditingCommits
    /// The number of sections; 1 by default.
    func numberOfSections(in tableView: TableView) -> Int
    /// The number of rows in a section.
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int
    /// The cell for a row, usually from `dequeueReusableCell(withIdentifier:for:)`.
    /// A cell is always returned, so UIKit's M2 cannot happen (rule 6.6).
    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell
    /// A section's header title; nil means none (rule 7.1).
    func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String?
    /// A section's footer title; nil means none (rule 7.1).
    func tableView(_ tableView: TableView, titleForFooterInSection section: Int) -> String?
    /// Whether a row may be edited (deleted, inserted, swiped); true by default (rule 3.2).
    func tableView(_ tableView: TableView, canEditRowAt indexPath: IndexPath) -> Bool
    /// The titles of the section index strip; nil means no index (rule 7.2).
    func sectionIndexTitles(for tableView: TableView) -> [String]?
    /// The section to scroll to for the index title at `index`; `index` by default (rule 7.3).
    func tableView(_ tableView: TableView, sectionForSectionIndexTitle title: String, at index: Int) -> Int
    /// Apply an insert or delete to the model and tell the table (rule 3.4).
    /// Writing it, as UIKit's data sources do, is what offers swipe-to-delete:
    ///
    ///     func tableView(_ tableView: TableView, commit editingStyle: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
    ///         if editingStyle == .delete { names.remove(at: indexPath.row); tableView.deleteRows(at: [indexPath], with: .fade) }
    ///     }
    func tableView(_ tableView: TableView, commit editingStyle: CommitEditingStyle, forRowAt indexPath: IndexPath)
}

/// The commit style of a data source that does not write
/// `tableView(_:commit:forRowAt:)`: it has no values, so nothing is ever
/// committed to it, and its table offers no swipe-to-delete.
public enum NoEditingCommits {}

extension TableViewDataSource where CommitEditingStyle == NoEditingCommits {
    /// Never called (no `NoEditingCommits` value exists): the data source commits no edits.
    public func tableView(_ tableView: TableView, commit editingStyle: NoEditingCommits, forRowAt indexPath: IndexPath) {}
}

extension TableViewDataSource {
    /// One section.
    public func numberOfSections(in tableView: TableView) -> Int { 1 }
    /// No header title.
    public func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? { nil }
    /// No footer title.
    public func tableView(_ tableView: TableView, titleForFooterInSection section: Int) -> String? { nil }
    /// Every row is editable.
    public func tableView(_ tableView: TableView, canEditRowAt indexPath: IndexPath) -> Bool { true }
    /// No section index.
    public func sectionIndexTitles(for tableView: TableView) -> [String]? { nil }
    /// The title at position `index` scrolls to section `index`.
    public func tableView(_ tableView: TableView, sectionForSectionIndexTitle title: String, at index: Int) -> Int {
        index
    }
}

/// A data source that commits edits, declared so: what a plain data source
/// gets by writing `tableView(_:commit:forRowAt:)`, for a subclass whose base
/// class conforms to ``TableViewDataSource`` without the method (the base
/// class fixed its `CommitEditingStyle`) (UIKit rules 3.4, 3.8).
///
/// ```swift
/// extension Planets: TableViewEditingDataSource {
///     func tableView(_ t: TableView, commit style: TableViewCell.EditingStyle, forRowAt p: IndexPath) {
///         names.remove(at: p.row)
///         t.deleteRows(at: [p])
///     }
/// }
/// ```
@MainActor
public protocol TableViewEditingDataSource: TableViewDataSource {
    /// Apply an insert or delete to the model and tell the table (rule 3.4).
    func tableView(_ tableView: TableView, commit editingStyle: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath)
}

/// A data source whose rows can be reordered by hand (UIKit rules 4.1–4.3).
///
/// ```swift
/// extension Units: TableViewReorderingDataSource {
///     func tableView(_ t: TableView, moveRowAt from: IndexPath, to: IndexPath) {
///         units.insert(units.remove(at: from.row), at: to.row)
///     }
/// }
/// ```
@MainActor
public protocol TableViewReorderingDataSource: TableViewDataSource {
    /// Whether a row shows a reorder handle in edit mode; true by default.
    func tableView(_ tableView: TableView, canMoveRowAt indexPath: IndexPath) -> Bool
    /// Update the model only: remove at `sourceIndexPath`, insert at
    /// `destinationIndexPath`. The table already shows the move (rule 4.3).
    func tableView(_ tableView: TableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath)
}

extension TableViewReorderingDataSource {
    /// Every row can move.
    public func tableView(_ tableView: TableView, canMoveRowAt indexPath: IndexPath) -> Bool { true }
}
