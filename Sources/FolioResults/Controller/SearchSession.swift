import FolioStore

/// A search typed over a controller's results: the results of the request
/// without its string filters, kept in order while the search types on,
/// with the folded texts the filters read, so that each keystroke is
/// answered from memory instead of a scan of the store.
///
/// ```swift
/// var search = SearchSession(request: unfiltered, sharing: engine)   // the engine now shares its rows
/// let index = try search.buildIndex(filter, sources: [.key(0)], texts: [], sectioned: false)
/// let outcome = search.narrow([filter], with: [index], narrowing: true)   // outcome.leavingCount rows left
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
    /// Where each section's rows begin among the rows, and their count last.
    let starts: [Int]
    /// The rows in the results now, by place in order; nil while every row is.
    private(set) var members: [Int32]?
    var memberCount: Int { members?.count ?? count }
    /// The rows that each set of filters typed earlier left, so that erasing back to
    /// them tests nothing (see ``remember(_:_:)``).
    private var known: [(typed: Typed, rows: [Int32])] = []
    /// The filters the members answer (nil for none), and those before the last keystroke.
    private(set) var typed: Typed?
    private(set) var typedBefore: Typed?
    /// Engines of the rows filters typed earlier left, set aside when a
    /// keystroke rebuilt the results, so that erasing back to them takes
    /// them back (see ``setAside(_:everyRow:)``).
    var earlier: [(typed: Typed, engine: Engine)] = []
    /// The smallest and largest row ID, which every engine built of the rows keeps within.
    let ids: ClosedRange<Int64>?
    /// The folded texts of the filters typed so far, one index per filter.
    private(set) var indexes: [SearchIndex] = []
    /// The engine of every row, set aside while a filter narrows them,
    /// so that erasing the filter takes it back instead of rebuilding it.
    var everyRow: Engine?
    /// The objects of rows the filters hide, kept as they were loaded, so
    /// that rows shown again need no load and the search does not make
    /// and free a copy of every object it hides and shows again.
    var hidden: [Int64: ManagedObject] = [:]
    /// Kept while the request has no filters, until the search ends (it
    /// was readied before its first keystroke and may type on).
    var prepared = false
    var count: Int { starts[starts.count - 1] }

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
        var starts = [0]
        starts.reserveCapacity(sections.count + 1)
        var lowest = Int64.max, highest = Int64.min
        for (_, entries, _) in sections {
            starts.append(starts[starts.count - 1] + entries.count)
            for entry in entries {
                lowest = min(lowest, entry.id)
                highest = max(highest, entry.id)
            }
        }
        self.starts = starts
        ids = lowest <= highest ? lowest...highest : nil
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

    /// Tests the rows against `filters` (their `indexes` alongside; only
    /// today's members when the filters are `narrowing`, since rows that
    /// left for an earlier filter cannot meet a narrower one) and makes the
    /// rows that pass the members. Filters typed before in this session are
    /// answered by the rows they left then.
    /// - Complexity: O(b) for the b bytes of text tested, O(m) to compare the m members before and after.
    mutating func narrow(_ filters: [StringFilter<Entity>], with indexes: [SearchIndex], narrowing: Bool) -> SearchScan.Outcome {
        let tests = filters.map(\.textTest)
        let typed = Typed(indexes: indexes.map(ObjectIdentifier.init), matches: tests.map(\.stringMatch))
        var after: [Int32]?
        // Rows tested among the members alone stay among them.
        var subset = false
        if filters.isEmpty {
            after = nil
        } else if let rows = known.first(where: { $0.typed == typed })?.rows {
            after = rows
        } else {
            var rows = narrowing ? members : nil
            subset = rows != nil
            for (test, index) in zip(tests, indexes) { rows = index.matching(test, among: rows) }
            after = rows
            remember(typed, rows!)
        }
        let outcome = SearchScan.Outcome(before: members, after: after, rows: count, subset: subset)
        members = after
        typedBefore = self.typed
        self.typed = filters.isEmpty ? nil : typed
        return outcome
    }

    /// The filters of a keystroke, by what answers them: the same index and match leave the same rows.
    struct Typed: Equatable {
        let indexes: [ObjectIdentifier]
        let matches: [StringMatch]
    }

    /// Keeps the rows `typed` left, the newest first, as long as all kept
    /// hold no more than twice the rows (8 bytes a row at most).
    private mutating func remember(_ typed: Typed, _ rows: [Int32]) {
        known.insert((typed, rows), at: 0)
        var total = 0
        known = Array(
            known.prefix { entry in
                total += entry.rows.count
                return total <= 2 * count
            })
    }

    /// The results `outcome` leaves, built in order from the kept rows, or
    /// the engine of every row set aside earlier when every row is back, or
    /// the engine set aside for the filters typed when they were typed before.
    /// - Complexity: O(m) for the m rows that stay, or O(1) for an engine set aside.
    mutating func results(_ outcome: SearchScan.Outcome, fixedSection: SectionKey?) -> Engine {
        if outcome.count == count, let every = everyRow {
            everyRow = nil
            return every
        }
        if let typed, let k = earlier.firstIndex(where: { $0.typed == typed }) { return earlier.remove(at: k).engine }
        let rebuilt = Engine(fixedSection: fixedSection)
        rebuilt.load(sorted: outcome.kept(sections, starts: starts), ids: ids.map { Int($0.lowerBound)...Int($0.upperBound) })
        return rebuilt
    }

    /// Lets go of the kept objects of the rows that `outcome` shows again
    /// (`shown` tells whether a row is in the results now): they are the
    /// results' now. Hidden rows are never members, so those shown entered.
    /// - Complexity: O(min(h, e)) for h hidden rows and e entering ones, and O(m) for m members to find the latter.
    mutating func unhide(_ outcome: SearchScan.Outcome, shown: (Int64) -> Bool) {
        guard !hidden.isEmpty, outcome.enteringCount > 0 else { return }
        if outcome.enteringCount <= hidden.count {
            for id in outcome.enteringIDs(sections, starts: starts) { hidden[id] = nil }
        } else {
            for id in hidden.keys.filter(shown) { hidden[id] = nil }
        }
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
