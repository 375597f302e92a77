extension TableView {
    /// Where `scrollToRow` puts the row.
    ///
    /// ```swift
    /// try table.scrollToRow(at: path, at: .top)
    /// ```
    public enum ScrollPosition: Sendable {
        /// As little scrolling as makes the row fully visible.
        case none
        /// The row at the top.
        case top
        /// The row in the middle.
        case middle
        /// The row at the bottom.
        case bottom
    }

    /// Scrolls so that a row shows at `position`; hides swipe actions.
    /// A missing row is refused with UIKit's M3 message.
    ///
    /// ```swift
    /// try table.scrollToRow(at: IndexPath(row: 500, section: 0), at: .middle)
    /// ```
    ///
    /// - Complexity: O(viewport lines).
    public func scrollToRow(at indexPath: IndexPath, at position: ScrollPosition, animated: Bool = false) throws(TableViewError) {
        try checkRowExists(indexPath)
        endSwipe()
        reveal(indexPath, at: position)
    }

    /// Scrolls by whole items covering at least `lines` lines (negative
    /// scrolls up), clamped to the content; hides swipe actions.
    ///
    /// ```swift
    /// table.scroll(byLines: 3)  // mouse wheel down
    /// ```
    ///
    /// - Complexity: O(|lines|).
    package func scroll(byLines lines: Int) {
        layoutIfNeeded()
        endSwipe()
        guard var current = topItem else { return }
        var moved = 0
        while moved < abs(lines) {
            guard let next = lines > 0 ? item(after: current) : item(before: current) else { break }
            current = next
            moved += height(of: next)
        }
        topItem = current
        needsLayout = true
    }

    /// Whether a row lies wholly inside the viewport.
    ///
    /// - Complexity: O(viewport lines).
    ///
    /// ```swift
    /// if !table.isRowFullyVisible(path) { try table.scrollToRow(at: path, at: .none) }
    /// ```
    package func isRowFullyVisible(_ indexPath: IndexPath) -> Bool {
        let items = layoutItems()
        guard let item = items.first(where: { $0.kind == .row(indexPath) }) else { return false }
        return item.y + item.height <= viewportHeight || item.y == 0
    }

    /// Moves the viewport so that a row shows at `position`.
    func reveal(_ indexPath: IndexPath, at position: ScrollPosition) {
        layoutIfNeeded()
        // Later layouts count rows off screen at the estimate again.
        defer { measuredHeights = [:] }
        let row = TableLayoutItem.Kind.row(indexPath)
        // Already in view (the highlight moved one row): nothing to place, nothing to measure.
        if position == .none, isRowFullyVisible(indexPath) { return }
        // A row off screen counts at the height of the last cell measured, which may not be its
        // own: placed by that, the last row of the table was left below the viewport.
        if position == .none || position == .bottom { measureAround(indexPath) }
        switch position {
        case .top:
            topItem = row
        case .bottom:
            topItem = topItem(showing: row, linesBelowTop: viewportHeight - height(of: row))
        case .middle:
            topItem = topItem(showing: row, linesBelowTop: (viewportHeight - height(of: row)) / 2)
        case .none:
            if let top = topItem, row < top {
                let header = TableLayoutItem.Kind.header(section: indexPath.section)
                let headerFits = height(of: header) > 0 && height(of: header) + height(of: row) <= viewportHeight
                topItem = indexPath.row == 0 && headerFits ? header : row
            } else {
                topItem = topItem(showing: row, linesBelowTop: viewportHeight - height(of: row))
            }
        }
        needsLayout = true
        guard position == .none || position == .bottom else { return }
        // Rows without cells were counted at the estimated height; laying them out measures
        // them, and a taller one pushes the row below the viewport: place it again with the
        // heights now known (each pass measures the rows it brings in, so it settles).
        for _ in 0..<4 where !isRowFullyVisible(indexPath) {
            measureAround(indexPath)
            topItem = topItem(showing: row, linesBelowTop: viewportHeight - height(of: row))
            needsLayout = true
        }
        // Laid out by the heights measured.
        layoutIfNeeded()
    }

    /// Measures the rows within a viewport's height of `indexPath`, above
    /// and below, that have no cell (each cell made, measured and queued for
    /// reuse at once): placing the row, and keeping the last page full at the
    /// table's end, then count their own heights, not the estimate.
    private func measureAround(_ indexPath: IndexPath) {
        func measure(from start: TableLayoutItem.Kind?, _ next: (TableLayoutItem.Kind) -> TableLayoutItem.Kind?) {
            var lines = 0
            var cursor = start
            while let kind = cursor, lines < viewportHeight {
                if case .row(let path) = kind, visibleCells[path] == nil, measuredHeights[path] == nil, hasAutomaticHeight(path) {
                    let cell = makeCell(at: path)
                    measuredHeights[path] = cell.fittingHeight
                    recycle(cell, at: path)
                }
                lines += height(of: kind)
                cursor = next(kind)
            }
        }
        let row = TableLayoutItem.Kind.row(indexPath)
        measure(from: row) { item(before: $0) }
        measure(from: item(after: row)) { item(after: $0) }
    }

    /// The item to put at the top so that about `lines` lines of items sit above `kind`.
    private func topItem(showing kind: TableLayoutItem.Kind, linesBelowTop lines: Int) -> TableLayoutItem.Kind {
        var top = kind
        var above = 0
        while let previous = item(before: top) {
            let height = height(of: previous)
            if above + height > lines { break }
            above += height
            top = previous
        }
        return top
    }

    /// Throws M3 unless the row exists.
    func checkRowExists(_ indexPath: IndexPath) throws(TableViewError) {
        loadIfNeeded()
        guard indexPath.section >= 0, indexPath.section < rowCounts.count else {
            throw .sectionOutOfBounds(section: indexPath.section, sectionCount: rowCounts.count, table: tableDescription)
        }
        guard indexPath.row >= 0, indexPath.row < rowCounts[indexPath.section] else {
            throw .rowOutOfBounds(indexPath, rowCount: rowCounts[indexPath.section], table: tableDescription)
        }
    }

    /// A short description in the manner of UIKit's `<UITableView: …>` suffix.
    ///
    /// ```swift
    /// print(table.tableDescription)
    /// ```
    package var tableDescription: String {
        let source = dataSource.map { String(describing: type(of: $0)) } ?? "nil"
        return "<TableView: sections = \(rowCounts.count); dataSource: <\(source)>>"
    }
}
