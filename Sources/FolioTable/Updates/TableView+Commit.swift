extension TableView {
    /// Moves the table's state through a validated batch: counts, cells,
    /// selection (rule 5.7), highlight, swipe and the top row (rule 8.4).
    ///
    /// Returns whether the highlighted row was visible before, for the
    /// caller to `reveal` it once the data source is in step.
    ///
    /// - Complexity: O(sections + (visible + selected rows) × changes per section).
    @discardableResult
    func commit(_ plan: BatchPlan, revealingHighlight: Bool = true) -> Bool {
        // The data source already answers in new coordinates, so what was
        // visible comes from the last layout when it is current; only after a
        // scroll not yet laid out is the old viewport walked.
        let highlightWasVisible = highlightedIndexPath.map { needsLayout ? isInViewport($0) : visibleCells[$0] != nil } ?? false
        cancelReordering()
        let newTop = topItem.map { anchoredTop($0, plan) }
        rowCounts = plan.newCounts

        var cells: [IndexPath: TableViewCell] = [:]
        for (path, cell) in visibleCells {
            switch plan.fate(ofRow: path) {
            case .kept(let new), .moved(let new): cells[new] = cell
            case .reloaded, .deleted: recycle(cell, at: path)
            }
        }
        visibleCells = cells

        var selection: Set<IndexPath> = []
        for path in selectedRows {
            switch plan.fate(ofRow: path) {
            case .kept(let new), .moved(let new): selection.insert(new)
            case .reloaded, .deleted: break
            }
        }
        selectedRows = selection

        if let highlighted = highlightedIndexPath {
            highlightedIndexPath = survivor(near: plan.approximatePosition(ofRow: highlighted))
        }
        if let confirming = deleteConfirmationIndexPath {
            deleteConfirmationIndexPath = Self.newPath(plan.fate(ofRow: confirming))
        }
        if let swiped = swipedIndexPath {
            if let new = Self.newPath(plan.fate(ofRow: swiped)) {
                swipedIndexPath = new
            } else {
                swipedIndexPath = nil
                endSwipe(reportedPath: .some(nil))
            }
        }
        for (path, cell) in visibleCells { applyState(to: cell, at: path) }
        topItem = newTop
        needsLayout = true
        if revealingHighlight, highlightWasVisible, let highlighted = highlightedIndexPath { reveal(highlighted, at: .none) }
        return highlightWasVisible
    }

    private static func newPath(_ fate: BatchPlan.RowFate) -> IndexPath? {
        switch fate {
        case .kept(let new), .moved(let new): new
        case .reloaded, .deleted: nil
        }
    }

    /// The row at `position`, or the nearest existing one after (else before) it.
    func survivor(near position: IndexPath) -> IndexPath? {
        firstRow(atOrAfter: position) ?? lastRow()
    }

    private func anchoredTop(_ top: TableLayoutItem.Kind, _ plan: BatchPlan) -> TableLayoutItem.Kind {
        // Without the anchor the top keeps its number and content slides (rule 8.2).
        guard anchorsTopRowAcrossUpdates else { return top }
        // At the very top the view stays at the top, so rows inserted first are seen.
        if needsLayout ? isFirstVisibleItem(top) : topWasFirstVisible { return .header(section: 0) }
        switch top {
        case .header(let section): return .header(section: plan.approximateSection(forOld: section))
        case .footer(let section): return .footer(section: plan.approximateSection(forOld: section))
        case .row(let path): return .row(plan.approximatePosition(ofRow: path))
        }
    }
}
