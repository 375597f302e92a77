extension TableView {
    /// The index strip's magnifying-glass entry; by convention first (rule 7.4).
    ///
    /// ```swift
    /// source.indexTitles = [TableView.indexSearch, "A", "B"]
    /// ```
    public static let indexSearch = "{search}"

    /// The titles of the section index strip, or nil for none (rule 7.2).
    ///
    /// ```swift
    /// let strip = table.sectionIndexTitles ?? []
    /// ```
    public var sectionIndexTitles: [String]? {
        dataSource?.sectionIndexTitles(for: self)
    }

    /// The section an index title leads to, asked of the data source with
    /// the title's position (rule 7.3); nil when it answers a section that
    /// does not exist (as apps do for `indexSearch`, rule 7.4).
    ///
    /// ```swift
    /// table.section(forSectionIndexTitleAt: 3)
    /// ```
    package func section(forSectionIndexTitleAt index: Int) -> Int? {
        guard let titles = sectionIndexTitles, titles.indices.contains(index), let dataSource else { return nil }
        let section = dataSource.tableView(self, sectionForSectionIndexTitle: titles[index], at: index)
        return section >= 0 && section < numberOfSections ? section : nil
    }

    /// A tap on the index strip: scrolls the section the title leads to
    /// to the top and returns it.
    ///
    /// ```swift
    /// table.userDidTapSectionIndexTitle(at: 0)
    /// ```
    @discardableResult
    package func userDidTapSectionIndexTitle(at index: Int) -> Int? {
        guard let section = section(forSectionIndexTitleAt: index) else { return nil }
        endSwipe()
        topItem = .header(section: section)
        needsLayout = true
        return section
    }
}
