extension TableView {
    /// The selected row, or the first of several (rule 5.1).
    ///
    /// ```swift
    /// if let path = table.indexPathForSelectedRow { show(path) }
    /// ```
    public var indexPathForSelectedRow: IndexPath? { selectedRows.min() }

    /// The selected rows in order, or nil when none is selected (as UIKit).
    ///
    /// ```swift
    /// let paths = table.indexPathsForSelectedRows ?? []
    /// ```
    public var indexPathsForSelectedRows: [IndexPath]? {
        selectedRows.isEmpty ? nil : selectedRows.sorted()
    }

    var allowsMultipleSelectionNow: Bool {
        isEditing ? allowsMultipleSelectionDuringEditing : allowsMultipleSelection
    }

    /// Selects a row from code: no delegate calls (rule 5.6). nil clears the
    /// selection; a missing row is refused with UIKit's M3 message.
    ///
    /// ```swift
    /// try table.selectRow(at: IndexPath(row: 2, section: 0), animated: false, scrollPosition: .middle)
    /// ```
    public func selectRow(at indexPath: IndexPath?, animated: Bool = false, scrollPosition: ScrollPosition = .none) throws(TableViewError) {
        guard let indexPath else {
            for path in selectedRows { setSelected(false, at: path) }
            return
        }
        try checkRowExists(indexPath)
        if !allowsMultipleSelectionNow {
            for path in selectedRows where path != indexPath { setSelected(false, at: path) }
        }
        setSelected(true, at: indexPath)
        reveal(indexPath, at: scrollPosition)
    }

    /// Deselects a row from code: no delegate calls (rule 5.6).
    ///
    /// ```swift
    /// table.deselectRow(at: path, animated: true)
    /// ```
    public func deselectRow(at indexPath: IndexPath, animated: Bool = false) {
        setSelected(false, at: indexPath)
    }

    func setSelected(_ selected: Bool, at indexPath: IndexPath) {
        if selected { selectedRows.insert(indexPath) } else { selectedRows.remove(indexPath) }
        visibleCells[indexPath]?.isSelected = selected
    }

    /// Moves the highlight (the cursor) to a row, asking `shouldHighlightRowAt`
    /// first (rule 5.2), keeps it visible, and hides swipe actions. Returns
    /// whether the row is now highlighted. Highlight never changes the
    /// selection.
    ///
    /// ```swift
    /// table.highlightRow(at: IndexPath(row: 0, section: 1))
    /// ```
    @discardableResult
    public func highlightRow(at indexPath: IndexPath?) -> Bool {
        guard let indexPath else {
            if let old = highlightedIndexPath { unhighlight(old) }
            return true
        }
        guard containsRow(at: indexPath) else { return false }
        endSwipe()
        guard delegate?.tableView(self, shouldHighlightRowAt: indexPath) ?? true else { return false }
        if highlightedIndexPath != indexPath {
            if let old = highlightedIndexPath { unhighlight(old) }
            highlightedIndexPath = indexPath
            visibleCells[indexPath]?.isHighlighted = true
            delegate?.tableView(self, didHighlightRowAt: indexPath)
        }
        reveal(indexPath, at: .none)
        return true
    }

    private func unhighlight(_ indexPath: IndexPath) {
        highlightedIndexPath = nil
        visibleCells[indexPath]?.isHighlighted = false
        delegate?.tableView(self, didUnhighlightRowAt: indexPath)
    }

    /// Moves the highlight `offset` rows down (negative: up), clamped to
    /// the first and last rows; rows the delegate refuses to highlight are
    /// skipped. Returns the highlighted row.
    ///
    /// ```swift
    /// table.moveHighlight(by: 1)                       // Down
    /// table.moveHighlight(by: -table.viewportHeight)   // PgUp
    /// ```
    ///
    /// - Complexity: O(|offset| + skipped rows).
    @discardableResult
    package func moveHighlight(by offset: Int) -> IndexPath? {
        loadIfNeeded()
        guard let start = highlightedIndexPath ?? firstRow(atOrAfter: IndexPath(row: 0, section: 0)) else { return nil }
        var target = highlightedIndexPath == nil ? start : (row(offset, from: start) ?? start)
        let step = offset >= 0 ? 1 : -1
        while !highlightRow(at: target) {
            guard let next = row(step, from: target), next != target else { break }
            target = next
        }
        return highlightedIndexPath
    }

    /// A user's tap (Enter, a click) on a row: highlight, then selection with
    /// the delegate's will/did calls (rules 5.2–5.5). Returns the row that
    /// ended up selected, or nil.
    ///
    /// ```swift
    /// if let path = table.userDidTapRow(at: table.highlightedIndexPath!) { push(detail(for: path)) }
    /// ```
    @discardableResult
    package func userDidTapRow(at indexPath: IndexPath) -> IndexPath? {
        guard containsRow(at: indexPath) else { return nil }
        guard isEditing ? allowsSelectionDuringEditing : allowsSelection else { return nil }
        guard highlightRow(at: indexPath) else { return nil }
        if allowsMultipleSelectionNow, selectedRows.contains(indexPath) {
            userDeselect(indexPath)
            return nil
        }
        let proposed: IndexPath? = delegate.map { $0.tableView(self, willSelectRowAt: indexPath) } ?? indexPath
        guard let target = proposed, containsRow(at: target) else { return nil }
        if !allowsMultipleSelectionNow {
            for old in selectedRows.sorted() where old != target { userDeselect(old) }
        }
        setSelected(true, at: target)
        delegate?.tableView(self, didSelectRowAt: target)
        return target
    }

    private func userDeselect(_ indexPath: IndexPath) {
        let proposed: IndexPath? = delegate.map { $0.tableView(self, willDeselectRowAt: indexPath) } ?? indexPath
        guard let target = proposed, selectedRows.contains(target) else { return }
        setSelected(false, at: target)
        delegate?.tableView(self, didDeselectRowAt: target)
    }

    /// A tap on a row's detail button: the delegate hears of it, and no
    /// selection happens (rule 6.8).
    ///
    /// ```swift
    /// table.userDidTapAccessoryButton(forRowAt: path)
    /// ```
    package func userDidTapAccessoryButton(forRowAt indexPath: IndexPath) {
        guard containsRow(at: indexPath) else { return }
        delegate?.tableView(self, accessoryButtonTappedForRowWith: indexPath)
    }
}
