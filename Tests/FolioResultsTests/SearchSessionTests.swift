import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioResults

/// A search session on its own, over a controller's loaded results: what
/// it shares with the engine, the folded texts it builds, how a keystroke
/// narrows its members, and the engines it keeps.
@MainActor @Suite struct SearchSessionTests {
    typealias Session = SearchSession<ResultsItem>
    static let names = ["Eel", "Ant", "Dog", "Cat", "Bee"]
    static let options: String.CompareOptions = [.caseInsensitive]
    let directory: StoreTemporaryDirectory

    init() throws { directory = try StoreTemporaryDirectory() }

    /// A controller of the items by name (Ant, Bee, Cat, Dog, Eel), fetched.
    func fetched() throws -> (PersistentContainer, FetchedResultsController<ResultsItem>) {
        let container = try PersistentContainer(schema: ResultsTestSchema.make(), path: directory.path("search.sqlite"))
        for name in Self.names { ResultsItem(context: container.viewContext).name = name }
        try container.viewContext.save()
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.name)]), managedObjectContext: container.viewContext)
        try controller.performFetch()
        return (container, controller)
    }

    func filter(_ text: String) -> StringFilter<ResultsItem> {
        StringFilter(anyOf: [\ResultsItem.name], .contains(text), options: Self.options)
    }

    func ids(_ controller: FetchedResultsController<ResultsItem>, _ names: [String]) -> [Int64] {
        names.map { name in controller.engineID(controller.fetchedObjects!.first { $0.name == name }!.objectID) }
    }

    @Test func aSessionSharesEveryRowWithTheEngine() throws {
        let (container, controller) = try fetched()
        let before = controller.engine.snapshot()
        let session = Session(request: controller.fetchRequest, sharing: controller.engine)
        #expect(controller.engine.snapshot().map(\.ids) == before.map(\.ids))
        #expect(session.agrees(with: controller.engine))
        #expect(session.count == 5 && session.memberCount == 5 && session.members == nil)
        #expect(session.starts == [0, 5])
        #expect(session.sections.flatMap { $0.entries.map(\.id) } == before.flatMap(\.ids))
        let places = session.rowPlaces()
        #expect(before.flatMap(\.ids).map { places.place(of: $0) } == [0, 1, 2, 3, 4])
        #expect(places.place(of: 1 << 40) == -1)
        controller.engine.renameIDs([:])
        #expect(!session.agrees(with: controller.engine), "an edit of the results leaves the session stale")
        withExtendedLifetime(container) {}
    }

    @Test func aKeystrokeNarrowsTheMembersFromTheFoldedTexts() throws {
        let (container, controller) = try fetched()
        var session = Session(request: controller.fetchRequest, sharing: controller.engine)
        let index = try session.buildIndex(filter("A"), sources: [.key(0)], texts: [], sectioned: false)
        #expect(session.index(answering: filter("an")) === index, "one index answers every text of the same attributes")
        #expect(session.index(answering: StringFilter(anyOf: [\ResultsItem.name], .contains("a"), options: [])) == nil)
        let (sections, starts) = (session.sections, session.starts)
        let first = session.narrow([filter("a")], with: [index], narrowing: false)
        #expect(session.members == [0, 2] && session.memberCount == 2)  // Ant, Cat
        #expect(first.leaving(sections, starts: starts) == ids(controller, ["Bee", "Dog", "Eel"]) && first.enteringCount == 0)
        #expect(first.leavingCount == 3 && first.changeCount == 3)
        let narrower = session.narrow([filter("an")], with: [index], narrowing: true)
        #expect(session.members == [0])
        #expect(narrower.leaving(sections, starts: starts) == ids(controller, ["Cat"]))
        let wider = session.narrow([filter("e")], with: [index], narrowing: false)
        #expect(session.members == [1, 4])  // Bee, Eel
        #expect(wider.leaving(sections, starts: starts) == ids(controller, ["Ant"]))
        #expect(wider.enteringIDs(sections, starts: starts) == ids(controller, ["Bee", "Eel"]) && wider.changeCount == 3)
        withExtendedLifetime(container) {}
    }

    @Test func textsFromTheStoreAreFoldedInTheSessionsOrder() throws {
        let (container, controller) = try fetched()
        var session = Session(request: controller.fetchRequest, sharing: controller.engine)
        // Texts given by hand for the rows in order (Ant … Eel), as the store would read them.
        let texts: [[String?]] = [["Kitchen", nil, "kit", "Attic", "Café"]]
        let index = try session.buildIndex(filter("KIT"), sources: [.stored(0)], texts: texts, sectioned: false)
        _ = session.narrow([filter("kit")], with: [index], narrowing: false)
        #expect(session.members == [0, 2])
        withExtendedLifetime(container) {}
    }

    @Test func theEngineOfEveryRowIsSetAsideAndTakenBack() throws {
        let (container, controller) = try fetched()
        var session = Session(request: controller.fetchRequest, sharing: controller.engine)
        let index = try session.buildIndex(filter(""), sources: [.key(0)], texts: [], sectioned: false)
        let narrowed = session.narrow([filter("a")], with: [index], narrowing: true)
        let kept = session.results(narrowed, fixedSection: controller.engine.fixedSection)
        #expect(kept.snapshot().flatMap(\.ids) == ids(controller, ["Ant", "Cat"]))
        let every = controller.engine
        session.setAside(everyRow: every)
        #expect(every.count == 0 && session.everyRow?.count == 5)
        let all = session.narrow([], with: [], narrowing: false)
        let back = session.results(all, fixedSection: every.fixedSection)
        #expect(back.count == 5 && session.everyRow == nil, "every row back takes the engine set aside")
        back.checkInvariants()
        withExtendedLifetime(container) {}
    }

    @Test func theEngineOfAFilterTypedBeforeIsSetAsideAndTakenBack() throws {
        let (container, controller) = try fetched()
        var session = Session(request: controller.fetchRequest, sharing: controller.engine)
        let index = try session.buildIndex(filter(""), sources: [.key(0)], texts: [], sectioned: false)
        let (antAndCat, beeAndEel) = (ids(controller, ["Ant", "Cat"]), ids(controller, ["Bee", "Eel"]))
        let every = controller.engine
        let a = session.results(session.narrow([filter("a")], with: [index], narrowing: true), fixedSection: every.fixedSection)
        session.setAside(every, everyRow: true)
        let an = session.results(session.narrow([filter("an")], with: [index], narrowing: true), fixedSection: every.fixedSection)
        session.setAside(a, everyRow: false)
        #expect(a.count == 0 && session.earlier.count == 1 && session.earlier[0].engine.count == 2, "Ant and Cat set aside")
        let back = session.results(session.narrow([filter("a")], with: [index], narrowing: false), fixedSection: every.fixedSection)
        #expect(back.snapshot().flatMap(\.ids) == antAndCat && session.earlier.isEmpty)
        session.setAside(an, everyRow: false)
        #expect(session.earlier.map(\.engine.count) == [1], "Ant set aside for 'an'")
        // Another text, whose rows are built anew.
        let e = session.results(session.narrow([filter("e")], with: [index], narrowing: false), fixedSection: every.fixedSection)
        #expect(e.snapshot().flatMap(\.ids) == beeAndEel)
        withExtendedLifetime(container) {}
    }

    @Test func rowsShownAgainAreNoLongerHidden() throws {
        let (container, controller) = try fetched()
        var session = Session(request: controller.fetchRequest, sharing: controller.engine)
        let objects = controller.fetchedObjects!
        let index = try session.buildIndex(filter(""), sources: [.key(0)], texts: [], sectioned: false)
        let narrowed = session.narrow([filter("a")], with: [index], narrowing: true)
        for id in narrowed.leaving(session.sections, starts: session.starts) {
            session.hidden[id] = objects.first { controller.engineID($0.objectID) == id }
        }
        let wider = session.narrow([filter("e")], with: [index], narrowing: false)
        let shown = Set(session.members!.map { session.sections[0].entries[Int($0)].id })
        // Found by the entering rows (no more than the hidden ones), or by the rows shown (fewer hidden).
        var fewerHidden = session
        session.unhide(wider) { shown.contains($0) }
        #expect(Set(session.hidden.keys) == Set(ids(controller, ["Dog"])))
        fewerHidden.hidden = [ids(controller, ["Eel"])[0]: objects[0]]
        fewerHidden.unhide(wider) { shown.contains($0) }
        #expect(fewerHidden.hidden.isEmpty)
        withExtendedLifetime(container) {}
    }
}
