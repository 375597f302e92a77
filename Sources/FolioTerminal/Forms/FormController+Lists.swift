import FolioTable

extension FormController {
    /// The items of the list value `key` (empty when unset).
    ///
    /// ```swift
    /// let steps = form.items("units")   // ["Pylon", "Gateway"]
    /// ```
    public func items(_ key: String) -> [String] { current.lists[key] ?? [] }

    /// Sets a list's items as the user chose them (a new race emptying the build order) and redraws.
    ///
    /// ```swift
    /// form.setItems([], for: "units")
    /// ```
    public func setItems(_ items: [String], for key: String) {
        current.lists[key] = items
        tableView.reloadData()
        setNeedsDisplay()
    }

    /// Appends an item the user chose to the list `key` and highlights its row.
    ///
    /// ```swift
    /// form.appendItem("Pylon", to: "units")
    /// ```
    public func appendItem(_ item: String, to key: String) {
        guard let section = sections.firstIndex(where: { $0.listKey == key }) else { return }
        current.lists[key, default: []].append(item)
        let path = IndexPath(row: items(key).count - 1, section: section)
        tableView.insertRows(at: [path])
        tableView.highlightRow(at: path)
        setNeedsDisplay()
    }

    /// The row of a list item: its text and the section's detail for it.
    func itemCell(_ tableView: TableView, at indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Item", for: indexPath)
        let section = sections[indexPath.section]
        let item = section.listKey.map { items($0)[indexPath.row] } ?? ""
        cell.textLabel?.text = item
        cell.detailTextLabel?.text = section.detail(self, item)
        return cell
    }

    // MARK: Editing the lists

    /// Only list items are deleted.
    public func tableView(_ tableView: TableView, canEditRowAt indexPath: IndexPath) -> Bool {
        sections[indexPath.section].listKey != nil
    }

    /// Only list items are moved.
    public func tableView(_ tableView: TableView, canMoveRowAt indexPath: IndexPath) -> Bool {
        sections[indexPath.section].listKey != nil
    }

    /// List items show the delete marker; fields none.
    public func tableView(_ tableView: TableView, editingStyleForRowAt indexPath: IndexPath) -> TableViewCell.EditingStyle {
        sections[indexPath.section].listKey != nil ? .delete : .none
    }

    /// Deleting an item changes the form's list only; Done saves it, Esc discards it.
    public func tableView(_ tableView: TableView, commit editingStyle: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
        guard editingStyle == .delete, let key = sections[indexPath.section].listKey,
            indexPath.row < items(key).count
        else { return }
        current.lists[key, default: []].remove(at: indexPath.row)
        tableView.deleteRows(at: [indexPath])
        setNeedsDisplay()
    }

    /// Moving an item reorders the form's list.
    public func tableView(_ tableView: TableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        guard let key = sections[sourceIndexPath.section].listKey else { return }
        var list = items(key)
        list.insert(list.remove(at: sourceIndexPath.row), at: destinationIndexPath.row)
        current.lists[key] = list
    }

    /// An item dragged out of its list stays in it: first when dragged
    /// above, last when dragged below.
    public func tableView(
        _ tableView: TableView, targetIndexPathForMoveFromRowAt sourceIndexPath: IndexPath,
        toProposedIndexPath proposedDestinationIndexPath: IndexPath
    ) -> IndexPath {
        if proposedDestinationIndexPath.section < sourceIndexPath.section {
            return IndexPath(row: 0, section: sourceIndexPath.section)
        }
        if proposedDestinationIndexPath.section > sourceIndexPath.section {
            let last = self.tableView(tableView, numberOfRowsInSection: sourceIndexPath.section) - 1
            return IndexPath(row: last, section: sourceIndexPath.section)
        }
        return proposedDestinationIndexPath
    }
}
