import FolioStore

extension AnyFetchedResultsController {
    /// The section index strip's titles: each section's index title, in
    /// section order, without repeats.
    ///
    /// ```swift
    /// controller.sectionIndexTitles   // ["A", "B", "M"]
    /// ```
    /// - Complexity: O(s log s) for s sections.
    public var sectionIndexTitles: [String] {
        var seen = Set<String>()
        var titles: [String] = []
        for index in 0..<shownSectionCount {
            guard let title = sectionIndexTitle(forSectionName: sectionName(shownSection(at: index))), seen.insert(title).inserted else {
                continue
            }
            titles.append(title)
        }
        return titles
    }

    /// The first section whose index title is `title` (for the index strip's tap at `index`).
    ///
    /// ```swift
    /// controller.section(forSectionIndexTitle: "M", at: 2)   // 2
    /// ```
    /// - Complexity: O(s log s).
    public func section(forSectionIndexTitle title: String, at index: Int) -> Int {
        for section in 0..<shownSectionCount where sectionIndexTitle(forSectionName: sectionName(shownSection(at: section))) == title {
            return section
        }
        preconditionFailure("FetchedResultsController: no section has the index title '\(title)' (index \(index))")
    }

    /// The index title for a section name: the delegate's answer, or the
    /// name's first letter, capitalised (nil for an empty name).
    ///
    /// ```swift
    /// controller.sectionIndexTitle(forSectionName: "mammals")   // "M"
    /// ```
    public func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        if let title = delegate?.controller(self, sectionIndexTitleForSectionName: sectionName) { return title }
        return sectionName.first.map { String($0).uppercased() }
    }
}
