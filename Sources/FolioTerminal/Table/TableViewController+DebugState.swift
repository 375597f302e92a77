import FolioTable

extension TableViewController: DebugInspectable {
    /// The table's state for the debug state hook: the highlighted row (and
    /// the object on it, when the screen can name it), the terminal line it
    /// was drawn on, the row whose actions are revealed, edit mode, and what
    /// the last frame drew where (`drawn`, see ``debugDrawn``).
    package var debugFacts: [String: String] {
        var facts: [String: String] = ["rowCount": "\(tableView.numberOfRowsInAllSections)", "editing": isEditing ? "1" : "0"]
        facts["drawn"] = debugDrawn
        facts["tableTop"] = "\(rowsRect.y)"
        facts["tableBottom"] = "\(rowsRect.maxY)"
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
            let name = naming.debugIdentifier(forRowAt: path)
        {
            facts["revealedID"] = name
        }
        return facts
    }

    /// The items the last frame drew, top to bottom, separated by U+001E:
    /// "line height H title" for a header, "… F title" for a footer,
    /// "… R name" for a row (the object's name when the screen can give it,
    /// else "section.row"). A test compares them with what `list` prints.
    var debugDrawn: String {
        let naming = self as? any DebugRowIdentifying
        var items: [(Int, String)] = titleFrames.map { ($0.0.y, "\($0.0.y) \($0.0.height) \($0.header ? "H" : "F") \($0.title)") }
        for (rect, path) in rowFrames {
            let name = naming?.debugIdentifier(forRowAt: path) ?? Self.debugName(path)
            items.append((rect.y, "\(rect.y) \(rect.height) R \(name)"))
        }
        return items.sorted { $0.0 < $1.0 }.map(\.1).joined(separator: "\u{1E}")
    }

    private static func debugName(_ path: IndexPath) -> String { "\(path.section).\(path.row)" }
}
