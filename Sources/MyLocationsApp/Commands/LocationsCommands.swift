import FolioAppSupport
import FolioResults
import FolioStore
import Foundation

/// `folio locations list|add|delete`.
@MainActor
enum LocationsCommands {
    static func run(_ name: String, arguments: inout Arguments, context: AppContext) throws {
        switch name {
        case "list":
            try ListedTable.runList(&arguments, context: context) { url in
                let container = try context.store { try LocationsStore.open(at: $0, readOnly: true) }
                return try listedTable(container.viewContext)
            }
        case "add":
            let description = try arguments.requiredOption("--description")
            let category = try arguments.requiredOption("--category")
            let latitude = try arguments.requiredOption("--latitude")
            let longitude = try arguments.requiredOption("--longitude")
            let address = try arguments.option("--address") ?? ""
            let date = try arguments.option("--date") ?? ""
            try arguments.finish()
            let input = try LocationInput(
                description: description, category: category, latitude: latitude,
                longitude: longitude, address: address, date: date)
            let container = try context.store { try LocationsStore.open(at: $0) }
            let location = try LocationsStore.add(input, to: container.viewContext, at: context.storeURL)
            context.console.out("\(location.objectID.rowID)")
        case "delete":
            let id = try arguments.positional("ID")
            try arguments.finish()
            guard let row = Int64(id), row > 0 else {
                throw AppError.invalidValue(option: "ID", value: id, reason: "not a location id (a positive number from `list --json`)")
            }
            let container = try context.store { try LocationsStore.open(at: $0) }
            guard (try? container.viewContext.existingObject(with: ObjectID(entityName: "Location", rowID: row))) != nil else {
                throw AppError.notFoundID(kind: "location", id: id)
            }
            try LocationsStore.delete(id: id, from: container.viewContext, at: context.storeURL)
        case "import", "export":
            try LocationsTransfer.transfer.run(name, arguments: &arguments, context: context)
        default:
            throw AppError.usage(message: "unknown subcommand '\(name)' for locations")
        }
    }

    /// The Locations tab's table, from the same results controller.
    static func listedTable(_ context: ObjectContext) throws -> ListedTable {
        try ListedTable(request: Location.listRequest, context: context, sectionNameKeyPath: Location.sectionKeyPath) { location in
            ListedTable.Row(
                id: "\(location.objectID.rowID)", text: "\(location.titleLine) — \(location.detailLine)",
                fields: [
                    ("description", .string(location.locationDescription)), ("category", .string(location.category)),
                    ("latitude", .number(location.latitude)), ("longitude", .number(location.longitude)),
                    ("address", .string(location.address)),
                    ("date", .string(ISODate.text(location.date))),
                ])
        }
    }
}
