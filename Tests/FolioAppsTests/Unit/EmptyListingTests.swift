import FolioAppSupport
import FolioStore
import Foundation
import PlanetsApp
import Testing
import ZootasticApp

/// An empty list is `[]` in every app's `list --json`, sectioned or not:
/// an unsectioned controller's one empty section is no section of the listing.
@MainActor
@Suite struct EmptyListingTests {
    @Test func anEmptyTableListsNoSectionsSectionedOrNot() throws {
        let planets = try PersistentContainer(schema: Planet.schema, path: nil)
        let unsectioned = try ListedTable(request: Planet.listRequest, context: planets.viewContext) { planet in
            .init(id: "\(planet.objectID.rowID)", text: planet.name, fields: [])
        }
        let zoo = try PersistentContainer(schema: Animal.schema, path: nil)
        let sectioned = try ListedTable(request: Animal.listRequest, context: zoo.viewContext, sectionNameKeyPath: Animal.sectionKeyPath) {
            animal in
            .init(id: "\(animal.objectID.rowID)", text: animal.commonName, fields: [])
        }
        for table in [unsectioned, sectioned] {
            #expect(table.sections.isEmpty)
            #expect(table.json.text == "[]")
            #expect(table.plainText.isEmpty)
        }
    }
}
