extension TableView {
    /// How a reuse identifier makes new cells.
    enum Registration {
        case cellClass(TableViewCell.Type)
        case factory(@MainActor (String) -> TableViewCell)
    }

    /// Registers a cell class for an identifier; registering again replaces
    /// the earlier entry, nil unregisters (rule 6.1). Cells are built with
    /// the `.default` style (rule 6.4).
    ///
    /// ```swift
    /// table.register(TextFieldCell.self, forCellReuseIdentifier: "Name")
    /// ```
    public func register(_ cellClass: TableViewCell.Type?, forCellReuseIdentifier identifier: String) {
        precondition(!identifier.isEmpty, "a cell reuse identifier must not be empty")
        registrations[identifier] = cellClass.map { .cellClass($0) }
        if cellClass == nil { reuseQueues[identifier] = nil }
    }

    /// Registers a closure that makes cells for an identifier, for cells
    /// that need another style than `.default` (the role of a nib).
    ///
    /// ```swift
    /// table.register(forCellReuseIdentifier: "Animal") { TableViewCell(style: .subtitle, reuseIdentifier: $0) }
    /// ```
    public func register(forCellReuseIdentifier identifier: String, makeCell: @escaping @MainActor (String) -> TableViewCell) {
        precondition(!identifier.isEmpty, "a cell reuse identifier must not be empty")
        registrations[identifier] = .factory(makeCell)
    }

    /// A queued cell, else a new one if the identifier is registered, else
    /// nil (rule 6.2). A recycled cell gets `prepareForReuse()` first (rule 6.5).
    ///
    /// ```swift
    /// let cell = table.dequeueReusableCell(withIdentifier: "Cell")
    ///     ?? TableViewCell(style: .value1, reuseIdentifier: "Cell")
    /// ```
    public func dequeueReusableCell(withIdentifier identifier: String) -> TableViewCell? {
        // Popped in place: a copy of the queue taken out and stored back would copy every cell in it.
        if let cell = reuseQueues[identifier]?.popLast() {
            cell.resetStateForReuse()
            cell.reuseCount += 1
            cell.prepareForReuse()
            return cell
        }
        guard let registration = registrations[identifier] else { return nil }
        createdCellCount += 1
        switch registration {
        case .cellClass(let type): return type.init(style: .default, reuseIdentifier: identifier)
        case .factory(let make): return make(identifier)
        }
    }

    /// Always returns a cell for a registered identifier (rule 6.3); an
    /// unregistered one is a programmer error stopped with UIKit's M1 message.
    ///
    /// ```swift
    /// let cell = table.dequeueReusableCell(withIdentifier: "Planet", for: indexPath)
    /// ```
    public func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> TableViewCell {
        guard let cell = dequeueReusableCell(withIdentifier: identifier) else {
            preconditionFailure(
                "unable to dequeue a cell with identifier \(identifier) - must register a nib or a class for the identifier or connect a prototype cell in a storyboard"
            )
        }
        return cell
    }

    /// A typed dequeue: `table.dequeueReusableCell(TextFieldCell.self, withIdentifier: "Name", for: path)`.
    ///
    /// ```swift
    /// let cell = table.dequeueReusableCell(TextFieldCell.self, withIdentifier: "Name", for: path)
    /// ```
    public func dequeueReusableCell<Cell: TableViewCell>(
        _ type: Cell.Type, withIdentifier identifier: String, for indexPath: IndexPath
    ) -> Cell {
        let cell = dequeueReusableCell(withIdentifier: identifier, for: indexPath)
        guard let typed = cell as? Cell else {
            preconditionFailure("cell for identifier \(identifier) at \(indexPath) is a \(Swift.type(of: cell)), not a \(Cell.self)")
        }
        return typed
    }

    /// The cell showing a row, or nil when the row is not visible.
    ///
    /// ```swift
    /// table.cellForRow(at: IndexPath(row: 0, section: 0))?.accessoryType = .checkmark
    /// ```
    public func cellForRow(at indexPath: IndexPath) -> TableViewCell? {
        layoutIfNeeded()
        return visibleCells[indexPath]
    }

    /// The visible cells, top to bottom.
    ///
    /// ```swift
    /// for cell in table.visibleCellsInOrder { print(cell.textLabel?.text ?? "") }
    /// ```
    public var visibleCellsInOrder: [TableViewCell] {
        indexPathsForVisibleRows.compactMap { visibleCells[$0] }
    }

    /// Returns a cell to its queue after its row left the screen or changed.
    func recycle(_ cell: TableViewCell, at indexPath: IndexPath) {
        delegate?.tableView(self, didEndDisplaying: cell, forRowAt: indexPath)
        // Queued by identifier even when unregistered, for the
        // `dequeueReusableCell(withIdentifier:) ?? TableViewCell(...)` pattern (rule 6.2).
        if let identifier = cell.reuseIdentifier {
            reuseQueues[identifier, default: []].append(cell)
        }
    }

    /// Asks the data source for a row's cell and gives it the row's state.
    func makeCell(at indexPath: IndexPath) -> TableViewCell {
        // A data source released while its rows are cached draws blank rows until the next reload.
        let cell = dataSource?.tableView(self, cellForRowAt: indexPath) ?? TableViewCell(style: .default, reuseIdentifier: nil)
        applyState(to: cell, at: indexPath)
        delegate?.tableView(self, willDisplay: cell, forRowAt: indexPath)
        return cell
    }

    /// Gives a cell the selection, highlight and editing state of its row.
    func applyState(to cell: TableViewCell, at indexPath: IndexPath) {
        cell.isSelected = selectedRows.contains(indexPath)
        cell.isHighlighted = highlightedIndexPath == indexPath
        cell.setEditing(isEditing, animated: false)
        cell.editingStyle = isEditing ? editingStyleForRow(at: indexPath) : .none
        cell.showsReorderControl = canMoveRow(at: indexPath)
        cell.showingDeleteConfirmation = deleteConfirmationIndexPath == indexPath
    }
}
