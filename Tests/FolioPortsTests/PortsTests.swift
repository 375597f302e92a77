import FolioResults
import FolioStore
import FolioTable
import FolioTerminal
import FolioTestSupport
import Testing

/// The three tutorial ports, driven headlessly: the table shown must equal a
/// fresh fetch (or the array) after every change.
@MainActor @Suite struct PortsTests {
    static func schema() -> Schema { Schema([Zoo.self, Classification.self, Animal.self]) }

    /// Sections and row texts as the table shows them, after a frame (every row fits the screen).
    func shown(_ table: TableView, _ app: Application) -> [[String]] {
        app.render()
        return (0..<table.numberOfSections).map { section in
            (0..<table.numberOfRows(inSection: section)).map { row in
                table.cellForRow(at: IndexPath(row: row, section: section))?.textLabel?.text ?? "(not shown)"
            }
        }
    }

    /// The same from a fresh fetch, pending changes included.
    func fetched(_ context: ObjectContext) throws -> [[String]] {
        let request = FetchRequest<Animal>(sortBy: [SortDescriptor(\Animal.classification?.order), SortDescriptor(\Animal.commonName)])
        var sections: [(String?, [String])] = []
        for animal in try context.fetch(request) {
            let key = animal.classification?.order
            if sections.last.map({ $0.0 != key }) ?? true { sections.append((key, [])) }
            sections[sections.count - 1].1.append(animal.commonName)
        }
        return sections.map(\.1)
    }

    func animal(_ name: String, _ classification: Classification?, in context: ObjectContext) {
        let animal = Animal(context: context)
        animal.commonName = name
        animal.habitat = "Forest"
        animal.classification = classification
    }

    func classification(_ order: String, in context: ObjectContext) -> Classification {
        let classification = Classification(context: context)
        classification.order = order
        return classification
    }

    @Test func zootasticFollowsInsertsDeletesAndMovesAcrossSections() async throws {
        let directory = try StoreTemporaryDirectory()
        let container = try PersistentContainer(schema: Self.schema(), path: directory.path("zoo.sqlite"))
        let context = container.viewContext
        let primates = classification("Primates", in: context)
        let birds = classification("Passeriformes", in: context)
        animal("Mantled Howler", primates, in: context)
        animal("Gray Wren", birds, in: context)
        try context.save()

        let controller = MainViewController()
        controller.context = context
        let (app, _) = Application.recording(NavigationController(root: controller), columns: 60, rows: 24)
        app.render()
        #expect(controller.isViewLoaded)
        #expect(shown(controller.tableView, app) == [["Gray Wren"], ["Mantled Howler"]])
        #expect(controller.tableView.dataSource?.tableView(controller.tableView, titleForHeaderInSection: 1) == "Primates")

        // An insert into a new section, saved.
        let carnivores = classification("Carnivora", in: context)
        animal("Red Panda", carnivores, in: context)
        try context.save()
        #expect(shown(controller.tableView, app) == (try fetched(context)))
        #expect(controller.tableView.numberOfSections == 3)

        // A move across sections that empties one: the old section goes.
        let wren = try #require(try context.fetch(FetchRequest<Animal>()).first { $0.commonName == "Gray Wren" })
        wren.classification = primates
        try context.save()
        #expect(shown(controller.tableView, app) == (try fetched(context)))
        #expect(shown(controller.tableView, app) == [["Red Panda"], ["Gray Wren", "Mantled Howler"]])

        // Unsaved changes reach the table when the context processes them.
        animal("Snow Leopard", carnivores, in: context)
        context.delete(wren)
        context.processPendingChanges()
        #expect(shown(controller.tableView, app) == [["Red Panda", "Snow Leopard"], ["Mantled Howler"]])
        context.rollback()
        #expect(shown(controller.tableView, app) == (try fetched(context)))

        // Another context's save arrives through the merge.
        try await container.performBackgroundTask { background in
            let all = try background.fetch(FetchRequest<Animal>())
            for animal in all where animal.commonName == "Red Panda" { background.delete(animal) }
            try background.save()
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while shown(controller.tableView, app) != (try fetched(context)), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(shown(controller.tableView, app) == [["Gray Wren", "Mantled Howler"]])
        #expect(shown(controller.tableView, app) == (try fetched(context)))
    }

    @Test func planetsSwipeToDeleteWithBothAnswers() throws {
        let controller = PlanetsViewController()
        let (app, _) = Application.recording(NavigationController(root: controller), columns: 60, rows: 24)
        app.send("j j")  // Earth
        app.send("Left Enter")  // swipe, press Delete
        #expect(app.presentedAlert?.title == "Delete Planet")
        // The iPad lines ran: no popover on a terminal, the view is the screen's rectangle.
        #expect(app.presentedAlert?.popoverPresentationController == nil)
        #expect(controller.view.bounds.size == CGSize(width: controller.frame.width, height: controller.frame.height))
        #expect(controller.view.bounds.width > 0)
        #expect(app.presentedAlert?.message == "Are you sure you want to permanently delete Earth?")
        #expect(app.presentedAlert?.focusedTitle == "Cancel")
        app.send("Enter")  // Cancel
        #expect(app.presentedAlert == nil)
        #expect(controller.deletePlanetIndexPath == nil)
        #expect(controller.planets.count == 8)
        #expect(shown(controller.tableView, app) == [controller.planets])

        app.send("Left Enter")
        app.send("Up")  // to Delete
        #expect(app.presentedAlert?.focusedTitle == "Delete")
        app.send("Enter")
        #expect(!controller.planets.contains("Earth"))
        #expect(shown(controller.tableView, app) == [controller.planets])
        #expect(controller.tableView.numberOfRows(inSection: 0) == 7)
    }

    @Test func cheatSheetWiredInInitLoadsOnceShownAndFollowsBatchUpdates() throws {
        let controller = CheatSheetViewController()
        #expect(!controller.isViewLoaded)
        let (app, _) = Application.recording(NavigationController(root: controller), columns: 40, rows: 12)
        app.render()
        #expect(controller.isViewLoaded)
        #expect(shown(controller.tableView, app) == [["Mercury", "Venus", "Earth"]])
        controller.dataSourceArray.insert("Mars", at: 1)
        controller.tableView.insertRows(at: [IndexPath(row: 1, section: 0)], with: .automatic)
        #expect(shown(controller.tableView, app) == [["Mercury", "Mars", "Venus", "Earth"]])
        // It writes no commit method, so a swipe offers nothing, as UIKit offers nothing.
        app.send("Left")
        #expect(!controller.tableView.isSwipeEditing)
        #expect(!controller.tableView.revealTrailingSwipeActions(forRowAt: IndexPath(row: 0, section: 0)))
        #expect(shown(controller.tableView, app) == [["Mercury", "Mars", "Venus", "Earth"]])
    }

    @Test func viewDidLoadRunsOnceBeforeTheFirstAppearance() throws {
        final class Recorder: TableViewController {
            var calls: [String] = []
            override func viewDidLoad() { super.viewDidLoad(); calls.append("didLoad") }
            override func viewWillAppear() { super.viewWillAppear(); calls.append("willAppear") }
        }
        let first = Recorder()
        let navigation = NavigationController(root: first)
        let (app, _) = Application.recording(navigation, columns: 40, rows: 12)
        navigation.push(Recorder())
        _ = navigation.pop()
        app.render()
        #expect(first.calls == ["didLoad", "willAppear", "willAppear"])
    }
}
