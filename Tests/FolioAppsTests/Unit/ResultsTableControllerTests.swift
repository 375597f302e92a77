import FolioAdapters
import FolioAppSupport
import FolioResults
import FolioStore
import FolioTable
import FolioTerminal
import FolioTestSupport
import Foundation
import PlanetsApp
import Testing

@MainActor
@Suite struct ResultsTableControllerTests {
    final class NamesController: ResultsTableController<Planet> {
        override func configure(_ cell: TableViewCell, with planet: Planet) { cell.textLabel?.text = planet.name }
    }

    func make() throws -> (PersistentContainer, NamesController, Application, TerminalRecordingDriver) {
        let container = try PersistentContainer(schema: Planet.schema, path: nil)
        let context = container.viewContext
        for (index, name) in ["Mercury", "Venus", "Earth", "Mars"].enumerated() {
            let planet = Planet(context: context)
            planet.name = name
            planet.position = index * 10
        }
        try context.save()
        let results = FetchedResultsController(fetchRequest: Planet.listRequest, managedObjectContext: context)
        let controller = try NamesController(title: "Planets", results: results)
        let driver = TerminalRecordingDriver(columns: 40, rows: 12)
        let app = Application(root: NavigationController(root: controller), driver: driver)
        app.render()
        return (container, controller, app, driver)
    }

    func check(_ container: PersistentContainer, _ controller: NamesController) {
        container.viewContext.checkInvariants()
        controller.results.checkInvariants()
        controller.tableView.checkInvariants()
        #expect(controller.adapter.refusals == 0)
    }

    @Test func theHighlightFollowsItsObjectWhenRowsAreInsertedAndDeletedAbove() throws {
        let (container, controller, app, driver) = try make()
        let context = container.viewContext
        app.handle(.key(Key(.down)))
        app.handle(.key(Key(.down)))
        #expect(controller.highlightedObject?.name == "Earth")

        for name in ["Alpha", "Beta"] {
            let planet = Planet(context: context)
            planet.name = name
            planet.position = -1
        }
        try context.save()
        app.render()
        check(container, controller)
        #expect(controller.tableView.highlightedIndexPath == IndexPath(row: 4, section: 0))
        #expect(driver.screen.text.contains("▸ Earth"))

        context.delete(try #require(try PlanetsStore.planet(named: "Mercury", in: context)))
        context.delete(try #require(try PlanetsStore.planet(named: "Alpha", in: context)))
        try context.save()
        app.render()
        check(container, controller)
        #expect(controller.highlightedObject?.name == "Earth")
        #expect(driver.screen.text.contains("▸ Earth"))
    }

    @Test func aMovedObjectKeepsTheHighlightAndDeletingItMovesItToANeighbour() async throws {
        let (container, controller, app, _) = try make()
        let context = container.viewContext
        app.handle(.key(Key(.down)))  // Venus
        let venus = try #require(controller.highlightedObject)
        venus.position = 100  // to the end
        try context.save()
        check(container, controller)
        #expect(controller.tableView.highlightedIndexPath == IndexPath(row: 3, section: 0))
        #expect(controller.highlightedObject === venus)

        controller.deleteAndSave(venus)
        await StoreSaveQueue.finished(context)
        check(container, controller)
        #expect(controller.tableView.numberOfRows(inSection: 0) == 3)
        #expect(controller.highlightedObject?.name == "Mars")
    }

    @Test func listedTableMatchesTheScreensResults() throws {
        let (container, controller, _, _) = try make()
        let listed = ListedTable(results: controller.results) { .init(id: "\($0.objectID.rowID)", text: $0.name, fields: []) }
        #expect(listed.plainText == "  Mercury\n  Venus\n  Earth\n  Mars\n")
        check(container, controller)
    }
}
