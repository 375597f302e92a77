import FolioResults
import FolioStore
import FolioTerminal

extension ResultsTableController {
    /// Makes `/` search the rows: each keystroke narrows the results to the
    /// objects whose text at any of `keyPaths` contains the typed text,
    /// case- and diacritic-insensitively, through the controller's request
    /// change and the change report that follows it (so the highlight stays
    /// on its object when it still matches, and saves from other processes
    /// keep applying under the filter).
    ///
    /// ```swift
    /// controller.searches([\Animal.commonName, \Animal.habitat])
    /// ```
    public func searches(_ keyPaths: [PartialKeyPath<Entity>]) {
        precondition(!keyPaths.isEmpty, "searches(_:): give at least one key path")
        searchKeyPaths = keyPaths
        baseStringFilters = results.fetchRequest.stringFilters
        isSearchable = true
    }

    /// How a search compares: case- and diacritic-insensitively.
    static var searchOptions: String.CompareOptions { [.caseInsensitive, .diacriticInsensitive] }

    /// The filter a search text adds to the screen's own filters.
    func stringFilters(forSearch text: String) -> [StringFilter<Entity>] {
        guard !text.isEmpty, !searchKeyPaths.isEmpty else { return baseStringFilters }
        return baseStringFilters + [StringFilter(anyOf: searchKeyPaths, .contains(text), options: Self.searchOptions)]
    }

    /// Narrows the results; a failure leaves them as they were and says so.
    /// The highlight stays on its object when it still matches, else goes to
    /// the first match with the view at the top. A keystroke that changes
    /// many rows is reported as its sections replaced, and the table then
    /// keeps neither the highlighted row's place nor the top's (they fall
    /// past the replaced sections, to the end), so both are put here,
    /// from the objects, at any size.
    func narrowResults(to text: String) {
        let filters = stringFilters(forSearch: text)
        let kept = highlightedObject
        do {
            try results.updateFetchRequest { $0.stringFilters = filters }
        } catch {
            presentError(title: "Search Failed", message: ErrorText.sentence(for: error))
        }
        if let kept, let path = results.indexPath(forObject: kept) {
            tableView.highlightRow(at: path)
        } else if let first = tableView.firstRow(atOrAfter: IndexPath(row: 0, section: 0)) {
            tableView.highlightRow(at: first)
        }
        // The change report moved the highlight (and the object it remembers) already: this placement wins.
        rememberHighlight()
        setNeedsDisplay()
    }
}
