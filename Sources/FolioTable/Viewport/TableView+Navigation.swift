extension TableView {
    /// The item after `kind` in layout order, zero-height ones included.
    func item(after kind: TableLayoutItem.Kind) -> TableLayoutItem.Kind? {
        switch kind {
        case .header(let section):
            return rowCounts[section] > 0 ? .row(IndexPath(row: 0, section: section)) : .footer(section: section)
        case .row(let path):
            let (section, row) = (path.section, path.row)
            return row + 1 < rowCounts[section] ? .row(IndexPath(row: row + 1, section: section)) : .footer(section: section)
        case .footer(let section):
            return section + 1 < rowCounts.count ? .header(section: section + 1) : nil
        }
    }

    /// The item before `kind` in layout order, zero-height ones included.
    func item(before kind: TableLayoutItem.Kind) -> TableLayoutItem.Kind? {
        switch kind {
        case .header(let section):
            return section > 0 ? .footer(section: section - 1) : nil
        case .row(let path):
            let (section, row) = (path.section, path.row)
            return row > 0 ? .row(IndexPath(row: row - 1, section: section)) : .header(section: section)
        case .footer(let section):
            let count = rowCounts[section]
            return count > 0 ? .row(IndexPath(row: count - 1, section: section)) : .header(section: section)
        }
    }

    /// An item's height in lines: untitled headers and footers take none.
    func height(of kind: TableLayoutItem.Kind) -> Int {
        switch kind {
        case .header(let section):
            if let height = delegate?.tableView(self, heightForHeaderInSection: section) { return max(0, height) }
            return headerTitle(forSection: section) == nil ? 0 : sectionHeaderHeight
        case .row(let path):
            let height = delegate?.tableView(self, heightForRowAt: path) ?? rowHeight
            guard height == Self.automaticDimension else { return max(1, height) }
            // A row on screen is as tall as its cell; one off it, as the last cell measured (or as
            // measured for a reveal).
            return visibleCells[path].map(\.fittingHeight) ?? measuredHeights[path] ?? estimatedRowHeight
        case .footer(let section):
            if let height = delegate?.tableView(self, heightForFooterInSection: section) { return max(0, height) }
            return footerTitle(forSection: section) == nil ? 0 : sectionFooterHeight
        }
    }

    /// A section's header title, from the data source (rule 7.1).
    ///
    /// ```swift
    /// let title = table.headerTitle(forSection: 0)
    /// ```
    package func headerTitle(forSection section: Int) -> String? {
        dataSource?.tableView(self, titleForHeaderInSection: section)
    }

    /// A section's footer title, from the data source (rule 7.1).
    ///
    /// ```swift
    /// let footer = table.footerTitle(forSection: 0)
    /// ```
    package func footerTitle(forSection section: Int) -> String? {
        dataSource?.tableView(self, titleForFooterInSection: section)
    }

    /// The first row at or after `path` in layout order, or nil.
    ///
    /// - Complexity: O(empty sections skipped).
    ///
    /// ```swift
    /// table.highlightRow(at: table.firstRow(atOrAfter: IndexPath(row: 0, section: 0)))   // Home
    /// ```
    package func firstRow(atOrAfter path: IndexPath) -> IndexPath? {
        loadIfNeeded()
        var section = max(0, path.section)
        var row = path.section < 0 ? 0 : max(0, path.row)
        while section < rowCounts.count {
            if row < rowCounts[section] { return IndexPath(row: row, section: section) }
            section += 1
            row = 0
        }
        return nil
    }

    /// The last row at or before `path` in layout order, or nil.
    ///
    /// - Complexity: O(empty sections skipped).
    ///
    /// ```swift
    /// table.lastRow(atOrBefore: IndexPath(row: 0, section: 3))
    /// ```
    package func lastRow(atOrBefore path: IndexPath) -> IndexPath? {
        loadIfNeeded()
        guard path.section >= 0, path.row >= 0 || path.section > 0 else { return nil }
        var section = min(path.section, rowCounts.count - 1)
        var row = path.section < rowCounts.count ? path.row : Int.max
        while section >= 0 {
            if rowCounts[section] > 0, row >= 0 { return IndexPath(row: min(row, rowCounts[section] - 1), section: section) }
            section -= 1
            row = Int.max
        }
        return nil
    }

    /// The table's last row, or nil when it has none.
    ///
    /// ```swift
    /// table.highlightRow(at: table.lastRow())   // End
    /// ```
    package func lastRow() -> IndexPath? {
        loadIfNeeded()
        return lastRow(atOrBefore: IndexPath(row: Int.max, section: rowCounts.count - 1))
    }

    /// The row `offset` rows away in layout order, clamped to the first and
    /// last rows; nil when the table has no rows.
    ///
    /// - Complexity: O(|offset| + empty sections skipped).
    ///
    /// ```swift
    /// table.row(5, from: IndexPath(row: 0, section: 0))
    /// ```
    package func row(_ offset: Int, from path: IndexPath) -> IndexPath? {
        guard var current = firstRow(atOrAfter: path) ?? lastRow() else { return nil }
        var remaining = offset
        while remaining > 0, let next = firstRow(atOrAfter: IndexPath(row: current.row + 1, section: current.section)) {
            current = next
            remaining -= 1
        }
        while remaining < 0, let previous = lastRow(atOrBefore: IndexPath(row: current.row - 1, section: current.section)) {
            current = previous
            remaining += 1
        }
        return current
    }

    /// The total number of rows.
    ///
    /// - Complexity: O(sections).
    ///
    /// ```swift
    /// print(table.numberOfRowsInAllSections)
    /// ```
    package var numberOfRowsInAllSections: Int {
        loadIfNeeded()
        return rowCounts.reduce(0, +)
    }

    /// A row's position among all rows (for a scroll indicator).
    ///
    /// - Complexity: O(sections).
    ///
    /// ```swift
    /// let fraction = Double(table.globalRowIndex(of: path)) / Double(table.numberOfRowsInAllSections)
    /// ```
    package func globalRowIndex(of path: IndexPath) -> Int {
        loadIfNeeded()
        return rowCounts.prefix(max(0, min(path.section, rowCounts.count))).reduce(0, +) + path.row
    }
}
