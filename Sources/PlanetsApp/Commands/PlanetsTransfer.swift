import FolioAppSupport
import FolioStore
import Foundation

/// `folio planets import|export`: rows of `name` and `position` (left out:
/// after the last), names unique in the file and the store. A store the
/// import makes holds only the imported planets.
@MainActor
package enum PlanetsTransfer {
    package static let transfer = AppTransfer(
        noun: "planets", fields: ["name", "position"],
        table: { url in
            try PlanetsCommands.listedTable(try PlanetsStore.open(at: url, readOnly: true).viewContext)
        }, write: importPlanets)

    struct Row {
        var name: String
        var position: Int?
    }

    static func importPlanets(_ records: [ImportRecord], at url: URL, progress: ImportProgress) throws -> Int {
        var rows = try AppTransfer.checked(records, progress: progress) { record in
            let name = try TextInput.visible(try record.text("name"), field: "name")
            let position = try record.integer("position").map { value in
                guard let position = Int(exactly: value), position >= 0 else { throw record.problem("position", "must not be negative") }
                return position
            }
            return Row(name: name, position: position)
        }
        if !StoreLocation.isServer(url), !FileManager.default.fileExists(atPath: url.path) {
            // A store the import would make is not made at all for a name given twice.
            try AppTransfer.refuseRepeats(records, field: "name", kind: "planet", existing: [], key: { rows[$0].name })
        }
        let container = try AppStore.open(schema: Planet.schema, at: url) { _ in }
        let context = container.viewContext
        // Rows without a position follow the last planet, in file order.
        var request = Planet.listRequest
        request.sortDescriptors = [SortDescriptor(\Planet.position, order: .reverse)]
        request.fetchLimit = 1
        var next = (try context.fetch(request).first?.position ?? -1) + 1
        for index in rows.indices where rows[index].position == nil {
            rows[index].position = next
            next += 1
        }
        do {
            return try AppTransfer.batchInsert(rows, into: context, at: url, progress: progress) {
                (row, values: inout BatchInsertValues<Planet>) in
                values[\.name] = row.name
                values[\.position] = row.position ?? 0
            }
        } catch {
            // The batch refused a name given twice or already stored (nothing was written): say on which line.
            let existing = Set(try context.fetch(FetchRequest<Planet>()).map(\.name))
            try AppTransfer.refuseRepeats(records, field: "name", kind: "planet", existing: existing, key: { rows[$0].name })
            throw error
        }
    }
}
