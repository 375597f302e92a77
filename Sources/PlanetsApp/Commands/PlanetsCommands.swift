import FolioAppSupport
import FolioResults
import FolioStore
import Foundation

/// `folio planets list|add|delete`, run against a store and printing to a console.
///
/// ```swift
/// try PlanetsCommands.run("add", arguments: &args, context: context)
/// ```
@MainActor
enum PlanetsCommands {
    static func run(_ name: String, arguments: inout Arguments, context: AppContext) throws {
        switch name {
        case "list":
            try ListedTable.runList(&arguments, context: context) { url in
                let container = try context.store { try PlanetsStore.open(at: $0, readOnly: true) }
                return try listedTable(container.viewContext)
            }
        case "add":
            let planet = try TextInput.visible(try arguments.positional("NAME"), field: "NAME")
            try arguments.finish()
            let container = try context.store { try PlanetsStore.open(at: $0) }
            try PlanetsStore.add(planet, to: container.viewContext, at: context.storeURL)
        case "delete":
            let planet = try arguments.positional("NAME")
            try arguments.finish()
            let container = try context.store { try PlanetsStore.open(at: $0) }
            try PlanetsStore.delete(named: planet, from: container.viewContext, at: context.storeURL)
        case "import", "export":
            try PlanetsTransfer.transfer.run(name, arguments: &arguments, context: context)
        default:
            throw AppError.usage(message: "unknown subcommand '\(name)' for planets")
        }
    }

    /// The Planets table as the app shows it, from the same results controller.
    static func listedTable(_ context: ObjectContext) throws -> ListedTable {
        try ListedTable(request: Planet.listRequest, context: context) { planet in
            ListedTable.Row(
                id: "\(planet.objectID.rowID)", text: planet.name,
                fields: [
                    ("name", .string(planet.name)), ("position", .integer(Int64(planet.position))),
                ])
        }
    }
}
