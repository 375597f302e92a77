extension TableView {
    /// Marks the layout stale; the next read recomputes it.
    ///
    /// ```swift
    /// table.setNeedsLayout()
    /// ```
    public func setNeedsLayout() { needsLayout = true }

    /// Lays out the visible items and makes sure each visible row has a
    /// cell: cells of rows that left the viewport go back to their queues,
    /// rows that entered it get cells from the data source.
    ///
    /// - Complexity: O(visible rows + empty sections skipped).
    ///
    /// ```swift
    /// table.layoutIfNeeded()
    /// ```
    public func layoutIfNeeded() {
        guard needsLayout else { return }
        loadIfNeeded()
        needsLayout = false
        normalizeTop()
        topWasFirstVisible = topItem.map(isFirstVisibleItem) ?? true
        var items: [TableLayoutItem] = []
        var y = 0
        var cursor = topItem
        while let kind = cursor, y < viewportHeight {
            let height = height(of: kind)
            if height > 0 {
                let title: String? =
                    switch kind {
                    case .header(let section): headerTitle(forSection: section)
                    case .footer(let section): footerTitle(forSection: section)
                    case .row: nil
                    }
                items.append(TableLayoutItem(kind: kind, y: y, height: height, title: title))
                y += height
            }
            cursor = item(after: kind)
        }
        cachedLayout = items
        let visible = Set(
            items.compactMap { item -> IndexPath? in
                if case .row(let path) = item.kind { return path } else { return nil }
            })
        for (path, cell) in visibleCells where !visible.contains(path) {
            visibleCells[path] = nil
            recycle(cell, at: path)
        }
        var remeasure = false
        for item in items {
            if case .row(let path) = item.kind, visibleCells[path] == nil {
                let cell = makeCell(at: path)
                visibleCells[path] = cell
                // An automatic row was laid out at the estimate; its cell needs another height.
                if cell.fittingHeight != item.height, hasAutomaticHeight(path) {
                    estimatedRowHeight = cell.fittingHeight
                    remeasure = true
                }
            }
        }
        // Again with the new cells' own heights: rows already with cells keep
        // theirs, so each pass only settles rows at the bottom, and it ends.
        if remeasure {
            needsLayout = true
            layoutIfNeeded()
        }
    }

    /// Whether a row's height is its cell's (``TableView/automaticDimension``).
    func hasAutomaticHeight(_ path: IndexPath) -> Bool {
        (delegate?.tableView(self, heightForRowAt: path) ?? rowHeight) == Self.automaticDimension
    }

    /// The items in the viewport, top to bottom.
    ///
    /// ```swift
    /// let lines = table.layoutItems().map(\.height).reduce(0, +)
    /// ```
    package func layoutItems() -> [TableLayoutItem] {
        layoutIfNeeded()
        return cachedLayout
    }

    /// The rows in the viewport, top to bottom (partly visible ones included).
    ///
    /// ```swift
    /// let visible = table.indexPathsForVisibleRows
    /// ```
    public var indexPathsForVisibleRows: [IndexPath] {
        layoutItems().compactMap { item in
            if case .row(let path) = item.kind { return path } else { return nil }
        }
    }

    /// The item at the top of the viewport, or nil for an empty table.
    ///
    /// ```swift
    /// if case .row(let path) = table.topVisibleItem { print(path) }
    /// ```
    package var topVisibleItem: TableLayoutItem.Kind? {
        layoutIfNeeded()
        return topItem
    }

    /// Whether a row lies in the viewport as it stands, without making cells.
    ///
    /// - Complexity: O(viewport lines).
    func isInViewport(_ indexPath: IndexPath) -> Bool {
        var y = 0
        var cursor = topItem
        while let kind = cursor, y < viewportHeight {
            if kind == .row(indexPath) { return true }
            y += height(of: kind)
            cursor = item(after: kind)
        }
        return false
    }

    /// Makes `topItem` name an existing item with height, no lower than the
    /// last page allows (rule 8.4: keep the offset, clamped).
    func normalizeTop() {
        guard !rowCounts.isEmpty else { topItem = nil; return }
        var candidate = topItem ?? .header(section: 0)
        switch candidate {
        case .header(let section) where section >= rowCounts.count,
            .footer(let section) where section >= rowCounts.count:
            candidate = .footer(section: rowCounts.count - 1)
        case .row(let path) where path.section >= rowCounts.count:
            candidate = .footer(section: rowCounts.count - 1)
        case .row(let path) where path.row >= rowCounts[path.section]:
            candidate = .footer(section: path.section)
        default: break
        }
        var forward: TableLayoutItem.Kind? = candidate
        while let kind = forward, height(of: kind) == 0 { forward = item(after: kind) }
        if forward == nil {
            var backward: TableLayoutItem.Kind? = candidate
            while let kind = backward, height(of: kind) == 0 { backward = item(before: kind) }
            forward = backward
        }
        guard let resolved = forward else { topItem = nil; return }
        let lowest = maximumTop()
        topItem = min(resolved, lowest ?? resolved)
    }

    /// The lowest top item that still fills the viewport.
    ///
    /// - Complexity: O(viewport lines + zero-height items at the end).
    func maximumTop() -> TableLayoutItem.Kind? {
        var cursor: TableLayoutItem.Kind? = .footer(section: rowCounts.count - 1)
        var best: TableLayoutItem.Kind?
        var filled = 0
        while let kind = cursor {
            let height = height(of: kind)
            if height > 0 {
                if best != nil, filled + height > viewportHeight { break }
                filled += height
                best = kind
                if filled >= viewportHeight { break }
            }
            cursor = item(before: kind)
        }
        return best
    }
}

extension TableView {
    /// Whether nothing with a height comes before `kind` (asks the data source: layout only).
    func isFirstVisibleItem(_ kind: TableLayoutItem.Kind) -> Bool {
        var cursor = item(before: kind)
        while let previous = cursor {
            if height(of: previous) > 0 { return false }
            cursor = item(before: previous)
        }
        return true
    }
}
