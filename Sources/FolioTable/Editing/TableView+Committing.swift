extension TableView {
    /// Whether the data source commits edits: it conforms to
    /// ``TableViewEditingDataSource``, or it wrote `tableView(_:commit:forRowAt:)`
    /// (its `CommitEditingStyle` is `TableViewCell.EditingStyle`). Read from
    /// the type, so no code of the data source runs (UIKit asks
    /// `respondsToSelector:`).
    ///
    /// ```swift
    /// if table.dataSourceCommitsEdits { offerDelete() }
    /// ```
    package var dataSourceCommitsEdits: Bool {
        guard let dataSource else { return false }
        func commits<D: TableViewDataSource>(_ source: D) -> Bool {
            source is any TableViewEditingDataSource || D.CommitEditingStyle.self == TableViewCell.EditingStyle.self
        }
        return commits(dataSource)
    }

    /// Calls the data source's `tableView(_:commit:forRowAt:)`; does nothing
    /// when it commits no edits.
    ///
    /// ```swift
    /// table.commitEdit(.delete, forRowAt: path)
    /// ```
    package func commitEdit(_ style: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
        guard let dataSource else { return }
        func commit<D: TableViewDataSource>(_ source: D) {
            if let editing = source as? any TableViewEditingDataSource {
                editing.tableView(self, commit: style, forRowAt: indexPath)
            } else if let style = style as? D.CommitEditingStyle {
                source.tableView(self, commit: style, forRowAt: indexPath)
            }
        }
        commit(dataSource)
    }
}
