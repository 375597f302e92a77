import FolioStore

extension FetchedResultsController {
    /// The results of the request without its string filters, kept in order
    /// while a search types on, so that each keystroke is answered from
    /// memory instead of a scan of the store.
    struct SearchBase {
        /// The request these are the results of; it has no string filters.
        let request: FetchRequest<Entity>
        /// The rows, section by section in order, with their leads.
        let sections: [(section: SectionKey, entries: ContiguousArray<Engine.Entry>, leads: ContiguousArray<UInt64>)]
        /// The controller's engine generation this base last agreed with:
        /// any other edit of the results (a save, a fetch) leaves it stale.
        var generation: UInt64
        /// Which of the rows, in order, are in the results now.
        var members: [Bool]
    }

    /// Answers a change of the request's string filters from memory, when
    /// every filtered attribute is a text sort key (so its text is in each
    /// row's key) and the rest of the request is that of a kept
    /// ``SearchBase``, or of the current results when they have no filters.
    /// A change of more than ``itemizedSearchLimit`` rows rebuilds the
    /// results in order and is reported as their sections replaced.
    /// Returns false, having done nothing, when the store must be asked.
    /// - Complexity: O(n) for the n rows of the base, plus O(k log n) for k
    ///   changes reported row by row.
    func refetchInMemory(_ next: KeyPlan<Entity>, previous: FetchRequest<Entity>, narrowing: Bool) throws -> Bool {
        guard !next.isWindowed, next.related.isEmpty, unread.isEmpty, let tests = keyedTextTests(next) else {
            searchBase = nil
            return false
        }
        var unfiltered = fetchRequest
        unfiltered.stringFilters = []
        if let base = searchBase, try base.generation != engine.generation || !sameMembers(base.request, unfiltered) {
            searchBase = nil
        }
        if searchBase == nil {
            // Only results without filters can become a base: they are all its rows.
            guard previous.stringFilters.isEmpty, try sameMembers(previous, unfiltered) else { return false }
            searchBase = SearchBase(request: unfiltered, sections: engine.sortedSections(), generation: engine.generation,
                                    members: Array(repeating: true, count: engine.count))
        }
        let base = searchBase!
        // Rows that left for an earlier filter cannot meet a narrower one: only members are tested.
        let scan = SearchScan(tests: tests, sectioned: next.sectioned).run(over: base.sections, members: base.members, narrowing: narrowing)
        searchBase!.members = scan.verdicts
        if scan.leaving.count + scan.entering.count <= itemizedSearchLimit {
            let changes = scan.leaving.map { ResultsRowChange<Int64, RowKey, SectionKey>(id: $0, row: nil, objectChanged: false) }
                + scan.enteringChanges(base.sections)
            applyMembership(next, changes: changes, entering: scan.enteringIDs(base.sections), links: [])
            return true
        }
        // Many rows change: rebuild in order and report the sections replaced.
        changeMembers(next, entering: scan.enteringIDs(base.sections), links: []) {
            let replaced = (0..<engine.numberOfSections).map { SectionChange(type: .delete, index: $0, section: engine.section(at: $0)) }
            let rebuilt = Engine(fixedSection: engine.fixedSection)
            rebuilt.load(sorted: scan.kept(base.sections))
            engine.adopt(rebuilt)
            let inserted = (0..<engine.numberOfSections).map { SectionChange(type: .insert, index: $0, section: engine.section(at: $0)) }
            return ResultsChangeSet(sectionChanges: replaced + inserted, objectChanges: [])
        }
        resident = resident.filter { engine.contains($0.key) }
        return true
    }

    /// Whether the next search keystroke is answered from rows in memory.
    ///
    /// ```swift
    /// #expect(controller.searchesInMemory)
    /// ```
    package var searchesInMemory: Bool { searchBase != nil }

    /// After the results changed for a new request: a base stays only while
    /// the request filters, and agrees with the results as they now are.
    func keepSearchBase() {
        guard searchBase != nil else { return }
        if fetchRequest.stringFilters.isEmpty { searchBase = nil } else { searchBase!.generation = engine.generation }
    }

    /// The request's string filters as tests of the rows' keys, or nil when
    /// one reads an attribute that is not a text sort key of the entity itself.
    private func keyedTextTests(_ next: KeyPlan<Entity>) -> [KeyedTextTest]? {
        guard let entity = managedObjectContext.schema.entity(named: Entity.entity.name) else { return nil }
        var tests: [KeyedTextTest] = []
        for filter in fetchRequest.stringFilters {
            var columns: [Int] = []
            for keyPath in filter.textKeyPaths {
                guard let column = next.keyPaths.firstIndex(where: { $0 == keyPath }),
                      let chain = try? entity.properties(along: keyPath),
                      chain.count == 1, chain[0].isAttribute, chain[0].storeType == .text else { return nil }
                columns.append(column)
            }
            tests.append(KeyedTextTest(columns: columns, test: filter.textTest))
        }
        return tests
    }

    /// Whether two requests without string filters match the same objects.
    private func sameMembers(_ a: FetchRequest<Entity>, _ b: FetchRequest<Entity>) throws -> Bool {
        try managedObjectContext.narrows(a, b) && managedObjectContext.narrows(b, a)
    }
}

/// One string filter as read from the rows' keys: the key columns holding
/// its attributes' texts (any of them matching), and its test.
struct KeyedTextTest {
    var columns: [Int]
    var test: StringTextTest
}

/// A search's pass over the rows of a ``FetchedResultsController/SearchBase``:
/// which meet every filter, and who enters or leaves the results. Apart from
/// the controller's generic code, so that the loop over a million rows is
/// compiled for its types.
struct SearchScan {
    typealias Entry = ResultsEngine<Int64, RowKey, SectionKey>.Entry
    typealias Sections = [(section: SectionKey, entries: ContiguousArray<Entry>, leads: ContiguousArray<UInt64>)]
    let tests: [KeyedTextTest]
    let sectioned: Bool

    struct Outcome {
        /// Per row, in order: whether it is in the new results.
        var verdicts: [Bool] = []
        var leaving: [Int64] = []
        /// The rows that enter, by (section, row) in the base.
        var entering: [(section: Int32, row: Int32)] = []
        /// Sections whose rows all stay.
        var whole: [Bool] = []

        /// The rows that stay, as ``ResultsEngine/load(sorted:)`` takes them;
        /// a section that keeps every row is shared, not copied.
        func kept(_ sections: Sections) -> Sections {
            var index = 0
            return sections.indices.map { s in
                let (section, entries, leads) = sections[s]
                defer { index += entries.count }
                if whole[s] { return (section, entries, leads) }
                var keptEntries = ContiguousArray<Entry>(), keptLeads = ContiguousArray<UInt64>()
                for i in entries.indices where verdicts[index + i] {
                    keptEntries.append(entries[i])
                    keptLeads.append(leads[i])
                }
                return (section, keptEntries, keptLeads)
            }
        }

        /// The entering rows as the engine's changes.
        func enteringChanges(_ sections: Sections) -> [ResultsRowChange<Int64, RowKey, SectionKey>] {
            entering.map { s, i in
                let (section, entries, _) = sections[Int(s)]
                let entry = entries[Int(i)]
                return ResultsRowChange(id: entry.id, row: ResultsRow(id: entry.id, key: entry.key, section: section), objectChanged: false)
            }
        }

        /// The entering rows' identifiers.
        func enteringIDs(_ sections: Sections) -> [Int64] {
            entering.map { s, i in sections[Int(s)].entries[Int(i)].id }
        }
    }

    /// Tests the rows, of which `members` (in order) are today's results; a
    /// `narrowing` filter tests those alone.
    func run(over sections: Sections, members: [Bool], narrowing: Bool) -> Outcome {
        var outcome = Outcome()
        outcome.verdicts.reserveCapacity(members.count)
        outcome.whole.reserveCapacity(sections.count)
        let passes = predicate()
        var index = 0
        for (s, (section, entries, _)) in sections.enumerated() {
            var whole = true
            for i in entries.indices {
                let member = members[index]
                index += 1
                let keep = (member || !narrowing) && passes(section, entries[i].key)
                outcome.verdicts.append(keep)
                whole = whole && keep
                if keep != member {
                    if keep { outcome.entering.append((Int32(s), Int32(i))) } else { outcome.leaving.append(entries[i].id) }
                }
            }
            outcome.whole.append(whole)
        }
        return outcome
    }

    /// The test of a row: whether its texts meet every filter (any of a
    /// filter's attributes matching; no text never does). The usual single
    /// filter on one attribute is held by the closure, not read per row.
    func predicate() -> (SectionKey, RowKey) -> Bool {
        let first = sectioned ? 1 : 0
        if tests.count == 1, tests[0].columns.count == 1 {
            let test = tests[0].test, column = tests[0].columns[0]
            return { section, key in
                if case .text(let text)? = Self.value(column, first, section, key) { test.matches(text) } else { false }
            }
        }
        let tests = tests
        return { section, key in
            tests.allSatisfy { test in
                test.columns.contains { column in
                    if case .text(let text)? = Self.value(column, first, section, key) { test.test.matches(text) } else { false }
                }
            }
        }
    }

    /// Key column `column`'s value, the section's when sectioned (`first` is 1) and it is 0.
    @inline(__always) static func value(_ column: Int, _ first: Int, _ section: SectionKey, _ key: RowKey) -> StoreValue? {
        if column < first { return section.value }
        return switch key.storage {
        case .empty: nil
        case .one(let value, _): column == first ? value : nil
        case .many(let values, _): values[column - first]
        }
    }
}
