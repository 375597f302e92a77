import FolioTable

extension TableViewController: DebugInspectable {
    /// The table's state for the debug state hook: the highlighted row (and
    /// the object on it, when the screen can name it), the terminal line it
    /// was drawn on, the row whose actions are revealed, edit mode.
    package var debugFacts: [String: String] {
        var facts: [String: String] = ["rowCount": "\(tableView.numberOfRowsInAllSections)", "editing": isEditing ? "1" : "0"]
        if let path = tableView.highlightedIndexPath {
            facts["highlight"] = Self.debugName(path)
            if let naming = self as? any DebugRowIdentifying, let name = naming.debugIdentifier(forRowAt: path) {
                facts["highlightID"] = name
            }
            if let line = rowFrames.first(where: { $0.1 == path })?.0.y { facts["highlightLine"] = "\(line)" }
        }
        if isSearchable {
            facts["search"] = searchText
            facts["searching"] = searchEditor != nil ? "1" : "0"
        }
        if let path = tableView.swipedIndexPath { facts["swiped"] = Self.debugName(path) }
        if let path = tableView.deleteConfirmationIndexPath { facts["confirming"] = Self.debugName(path) }
        if let path = revealedActionPath, let naming = self as? any DebugRowIdentifying,
           let name = naming.debugIdentifier(forRowAt: path) {
            facts["revealedID"] = name
        }
        return facts
    }

    private static func debugName(_ path: IndexPath) -> String { "\(path.section).\(path.row)" }
}
