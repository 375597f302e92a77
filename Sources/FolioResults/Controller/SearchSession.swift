import FolioStore

/// A search typed over a controller's results: the results of the request
/// without its string filters, kept in order while the search types on,
/// with the folded texts the filters read, so that each keystroke is
/// answered from memory instead of a scan of the store.
///
/// ```swift
/// var search = SearchSession(request: unfiltered, sharing: engine)   // the engine now shares its rows
/// let index = try search.buildIndex(filter, sources: [.key(0)], texts: [], sectioned: false)
/// let outcome = search.narrow([filter], with: [index], narrowing: true)
/// ```
struct SearchSession<Entity: ManagedObject> {
    typealias Engine = ResultsEngine<Int64, RowKey, SectionKey>

    /// Where a searched attribute's text comes from: a key column the rows
    /// hold already, or the texts read from the store for every row.
    enum TextSource {
        case key(Int)
        case stored(Int)
    }

    /// The request these are the results of; it has no string filters.
    let request: FetchRequest<Entity>
    /// The rows, section by section in order, with their leads. The
    /// engine shares these arrays while it shows whole sections.
    let sections: SearchScan.Sections
    /// The engine generation this session last agreed with: any other
    /// edit of the results (a save, a fetch) leaves it stale.
    var generation: UInt64
    /// Which of the rows, in order, are in the results now, and how many.
    private(set) var members: [Bool]
    private(set) var memberCount: Int
    /// The folded texts of the filters typed so far, one index per filter.
    private(set) var indexes: [SearchIndex] = []
    /// The engine of every row, set aside while a filter narrows them,
    /// so that erasing the filter takes it back instead of rebuilding it.
    private(set) var everyRow: Engine?
    /// The objects of rows the filters hide, kept as they were loaded, so
    /// that rows shown again need no load and the search does not make
    /// and free a copy of every object it hides and shows again.
    var hidden: [Int64: ManagedObject] = [:]
    /// Kept while the request has no filters, until the search ends (it
    /// was readied before its first keystroke and may type on).
    var prepared = false
    var count: Int { members.count }

    /// Starts a search over every row of `engine`, the results of `request`
    /// (without string filters). The engine is loaded again from the
    /// session's arrays, so that the two hold one copy of the rows, not two.
    /// - Complexity: O(n).
    init(request: FetchRequest<Entity>, sharing engine: Engine) {
        precondition(request.stringFilters.isEmpty, "SearchSession: the request of every row has no string filters")
        self.request = request
        sections = engine.sortedSections()
        let shared = Engine(fixedSection: engine.fixedSection)
        shared.load(sorted: sections)
        engine.adopt(shared)
        generation = engine.generation
        members = Array(repeating: true, count: engine.count)
        memberCount = engine.count
    }

    /// Whether the session still agrees with `engine`: nothing but the search edited it since.
    func agrees(with engine: Engine) -> Bool { generation == engine.generation }

    /// The index kept for `filter`, if one was built.
    func index(answering filter: StringFilter<Entity>) -> SearchIndex? { indexes.first { $0.answers(filter) } }

    /// Builds and keeps the folded texts of `filter`'s attributes for every
    /// row, in order: each attribute's text from its `sources` entry, a key
    /// column (the section key is column 0 when `sectioned`) or a column of
    /// `texts` (each the stored texts of every row, in order).
    /// - Throws: ``SearchIndex/SearchIndexTooLarge`` past 4 GiB of text.
    /// - Complexity: O(b) for b bytes of text.
    mutating func buildIndex(
        _ filter: StringFilter<Entity>, sources: [TextSource], texts: [[String?]], sectioned: Bool
    ) throws -> SearchIndex {
        let sections = sections
        let first = sectioned ? 1 : 0
        var section = 0, row = 0
        let index = try SearchIndex(
            keyPaths: filter.textKeyPaths.map { $0 as AnyKeyPath }, options: filter.foldingOptions,
            rows: count
        ) { position, add in
            while row == sections[section].entries.count { section += 1; row = 0 }
            let (key, entry) = (sections[section].section, sections[section].entries[row])
            row += 1
            for source in sources {
                switch source {
                case .key(let column):
                    if case .text(let text)? = SearchScan.value(column, first, key, entry.key) { add(text) } else { add(nil) }
                case .stored(let column):
                    add(texts[column][position])
                }
            }
        }
        indexes.append(index)
        return index
    }

    /// Tests every row against `filters` (their `indexes` alongside; only
    /// today's members when the filters are `narrowing`, since rows that
    /// left for an earlier filter cannot meet a narrower one) and makes the
    /// rows that pass the members.
    /// - Complexity: O(b) for the b bytes of text tested, O(n) to compare memberships.
    mutating func narrow(_ filters: [StringFilter<Entity>], with indexes: [SearchIndex], narrowing: Bool) -> SearchScan.Outcome {
        var verdicts = narrowing ? members : [Bool](repeating: true, count: count)
        for (filter, index) in zip(filters, indexes) { index.narrow(&verdicts, to: filter.textTest) }
        let outcome = SearchScan.Outcome(verdicts: verdicts, members: members, sections: sections)
        members = verdicts
        memberCount = outcome.count
        return outcome
    }

    /// The results `outcome` leaves, built in order from the kept rows, or
    /// the engine of every row set aside earlier when every row is back.
    /// - Complexity: O(n), or O(1) for the engine set aside.
    mutating func results(_ outcome: SearchScan.Outcome, fixedSection: SectionKey?) -> Engine {
        if outcome.count == count, let every = everyRow {
            everyRow = nil
            return every
        }
        let rebuilt = Engine(fixedSection: fixedSection)
        rebuilt.load(sorted: outcome.kept(sections))
        return rebuilt
    }

    /// Sets `engine`'s rows aside as the engine of every row (they must be
    /// every row), leaving it empty, so that erasing the filters takes them
    /// back; keeps an engine set aside before.
    mutating func setAside(everyRow engine: Engine) {
        guard everyRow == nil else { return }
        let every = Engine(fixedSection: engine.fixedSection)
        every.adopt(engine)
        everyRow = every
    }

    /// Lets go of the kept objects of the rows that `outcome` shows again:
    /// they are the results' now.
    mutating func unhide(_ outcome: SearchScan.Outcome) {
        guard !hidden.isEmpty else { return }
        for (s, i) in outcome.entering { hidden[sections[Int(s)].entries[Int(i)].id] = nil }
    }

    /// Each row's place in the session's order, found by its ID.
    ///
    /// ```swift
    /// let places = search.rowPlaces()
    /// places.place(of: id)   // -1 when not a row
    /// ```
    func rowPlaces() -> RowPlaces { RowPlaces(sections) }

    /// Places by ID: in an array for the store's dense row IDs, else by dictionary.
    struct RowPlaces {
        private var dense: [Int32]
        private var sparse: [Int64: Int32] = [:]

        init(_ sections: SearchScan.Sections) {
            let count = sections.reduce(0) { $0 + $1.entries.count }
            dense = [Int32](repeating: -1, count: count * 2 + 1024)
            var position: Int32 = 0
            for (_, entries, _) in sections {
                for entry in entries {
                    if entry.id >= 0 && entry.id < dense.count { dense[Int(entry.id)] = position } else { sparse[entry.id] = position }
                    position += 1
                }
            }
        }

        /// The row's place, or -1.
        @inline(__always) func place(of id: Int64) -> Int32 {
            id >= 0 && id < dense.count ? dense[Int(id)] : sparse[id] ?? -1
        }
    }
}
