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

    /// The filter a search text adds to the screen's own filters.
    func stringFilters(forSearch text: String) -> [StringFilter<Entity>] {
        guard !text.isEmpty, !searchKeyPaths.isEmpty else { return baseStringFilters }
        return baseStringFilters + [StringFilter(anyOf: searchKeyPaths, .contains(text), options: [.caseInsensitive, .diacriticInsensitive])]
    }

    /// Narrows the results; a failure leaves them as they were and says so.
    func narrowResults(to text: String) {
        let filters = stringFilters(forSearch: text)
        do {
            try results.updateFetchRequest { $0.stringFilters = filters }
        } catch {
            presentError(title: "Search Failed", message: ErrorText.sentence(for: error))
        }
        restoreHighlight()
    }
}
