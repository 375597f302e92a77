import FolioResults
import FolioStore

/// A results controller wired to a table (``ResultsTableHarness``) whose
/// every report is checked as it arrives: the table accepts it by UIKit's
/// batch rules, the report applied to the sections before gives what the
/// controller shows now, and that is what a fresh fetch gives whenever the
/// fetch saw only commits the context has merged. Problems are collected, not thrown, for a test (or
/// a test's child process) to read at the end.
///
///     let watch = try ResultsWatch(request, in: context, sectionKey: \.shelf)
///     try context.save()
///     #expect(watch.problems.isEmpty)
@MainActor
public final class ResultsWatch<Entity: ManagedObject> {
    public typealias Sections = [ResultsBatchApplier.Section<ObjectID, SectionIdentifier>]
    public let harness: ResultsTableHarness<Entity>
    public let sectionKey: PartialKeyPath<Entity>?
    /// The sections after the last checked report.
    public private(set) var previous: Sections = []
    /// Every rule a report broke, and every report that disagreed with a fresh fetch.
    public private(set) var problems: [String] = [] {
        didSet { if let last = problems.last, problems.count > oldValue.count { onProblem?(last) } }
    }
    /// Told of each problem as it is found (a child process prints it at once, before it may be killed).
    public var onProblem: ((String) -> Void)?
    /// How many reports were checked.
    public private(set) var reports = 0
    private var tableErrorsSeen = 0
    private let renamed: RenamedIDs
    private let renames: ObservationToken

    /// The new objects' permanent IDs from the context's saves, not yet put into ``previous``.
    private final class RenamedIDs {
        var ids: [ObjectID: ObjectID] = [:]
    }

    /// Fetches `request` in a new controller on `context` and starts checking its reports.
    public init(_ request: FetchRequest<Entity>, in context: ObjectContext, sectionKey: PartialKeyPath<Entity>?) throws {
        // A save renames new objects; the table keeps their rows, so the sections before are renamed too. Noted
        // before the controller hears the save (observers run in the order they were added): a new ID that sorts
        // elsewhere moves its row, and that save's report names the row by its new ID.
        let renamed = RenamedIDs()
        renames = context.observeChanges { changes in
            if changes.origin == .thisContext { renamed.ids.merge(changes.permanentIDs) { $1 } }
        }
        self.renamed = renamed
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: sectionKey)
        try controller.performFetch()
        harness = ResultsTableHarness(controller: controller)
        self.sectionKey = sectionKey
        previous = shown()
        harness.afterEachBatch = { [weak self] batch in self?.check(batch) }
    }

    /// Puts the permanent IDs the context's saves gave into ``previous``.
    private func adoptRenames() {
        guard !renamed.ids.isEmpty else { return }
        previous = previous.map { ($0.section, $0.ids.map { renamed.ids[$0] ?? $0 }) }
        renamed.ids = [:]
    }

    /// Whether the controller shows what a fresh fetch gives now (its context's unsaved changes included).
    public func agreesWithFetch() throws -> Bool {
        adoptRenames()
        let now = try truth()
        return shown().map(\.ids) == now.map(\.ids) && shown().map(\.section) == now.map(\.section)
            && previous.map(\.ids) == now.map(\.ids)
    }

    /// Checks one report twice: as UIKit applies it to what the controller
    /// showed before, with the controller answering as the data source; and
    /// against a fresh fetch, when that fetch saw only commits the context
    /// has merged (another connection's commit can land a moment before the
    /// context hears it: a fetch shows it, the controller not yet).
    private func check(_ batch: FetchedResultsChanges) {
        reports += 1
        adoptRenames()
        for error in harness.tableErrors.dropFirst(tableErrorsSeen) { problems.append("table refused a report: \(error)") }
        tableErrorsSeen = harness.tableErrors.count
        harness.reset()
        let shownNow = shown()
        do {
            let applied = try ResultsBatchApplier.apply(batch, to: previous, dataSource: shownNow)
            if applied.map(\.ids) != shownNow.map(\.ids) {
                problems.append("report \(batch.objectChanges) gives \(applied.map(\.ids)), the controller shows \(shownNow.map(\.ids))")
            }
            var kinds: [ObjectID: [ResultsChangeType]] = [:]
            for change in batch.objectChanges { kinds[change.id, default: []].append(change.type) }
            for (id, types) in kinds where !(types.count == 1 || Set(types) == [.delete, .insert]) {
                problems.append("\(id) reported as \(types)")
            }
            let (now, merged) = try harness.controller.managedObjectContext.readingMergedState { try truth() }
            if merged && (now.map(\.ids) != shownNow.map(\.ids) || now.map(\.section) != shownNow.map(\.section)) {
                problems.append("report \(batch.objectChanges) gives \(applied.map(\.ids)), a fetch \(now.map(\.ids))")
            }
        } catch {
            problems.append("\(error)")
        }
        previous = shownNow
    }

    /// The sections a fresh fetch gives.
    private func truth() throws -> Sections {
        try Self.freshSections(of: harness.controller, sectionKey: sectionKey)
    }

    private func shown() -> Sections {
        Self.shownSections(of: harness.controller)
    }

    /// The sections a fresh fetch of `controller`'s request gives, unsaved changes included.
    ///
    ///     let truth = try ResultsWatch.freshSections(of: controller, sectionKey: \.shelf)
    public static func freshSections(of controller: FetchedResultsController<Entity>, sectionKey: PartialKeyPath<Entity>?) throws
        -> Sections
    {
        var request = controller.fetchRequest
        request.fetchBatchSize = 0
        let keyed = try controller.managedObjectContext.fetchKeys(request, keyPaths: sectionKey.map { [$0] } ?? [])
        guard sectionKey != nil else { return [(SectionIdentifier(""), keyed.map(\.id))] }
        var sections: Sections = []
        for row in keyed {
            let section: SectionIdentifier
            switch row.values[0] {
            case .null: section = .nilKey
            case .integer(let v): section = SectionIdentifier(String(v))
            case .text(let v): section = SectionIdentifier(v)
            default: section = SectionIdentifier("\(row.values[0])")
            }
            if sections.last?.section == section {
                sections[sections.count - 1].ids.append(row.id)
            } else {
                sections.append((section, [row.id]))
            }
        }
        return sections
    }

    /// The sections `controller` shows.
    ///
    ///     let shown = ResultsWatch.shownSections(of: controller)
    public static func shownSections(of controller: FetchedResultsController<Entity>) -> Sections {
        let snapshot = controller.snapshot()
        return Array(zip(snapshot.sectionIdentifiers, snapshot.itemIdentifiers).map { ($0.0, $0.1) })
    }
}
