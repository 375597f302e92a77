import FolioAppSupport
import FolioResults
import FolioStore

/// `folio guides list|add|add-unit|delete`.
@MainActor
enum GuidesCommands {
    static func run(_ name: String, arguments: inout Arguments, context: AppContext) throws {
        switch name {
        case "list":
            try ListedTable.runList(&arguments, context: context) { url in
                let container = try context.store { try BuildGuideStore.open(at: $0, readOnly: true) }
                return try listedTable(container.viewContext)
            }
        case "add":
            let race = try arguments.option("--race")
            let guide = try TextInput.visible(try arguments.positional("NAME"), field: "NAME")
            try arguments.finish()
            let container = try context.store { try BuildGuideStore.open(at: $0) }
            try BuildGuideStore.addGuide(named: guide, race: race, to: container.viewContext, at: context.storeURL)
        case "add-unit":
            let id = try arguments.option("--id")
            let guideName = id == nil ? try arguments.positional("NAME") : nil
            let unit = try arguments.positional("UNIT")
            try arguments.finish()
            let container = try context.store { try BuildGuideStore.open(at: $0) }
            let guide = try guide(named: guideName, id: id, in: container.viewContext)
            try BuildGuideStore.addUnit(unit, to: guide, in: container.viewContext, at: context.storeURL)
        case "delete":
            let id = try arguments.option("--id")
            let name = id == nil ? try arguments.positional("NAME") : nil
            try arguments.finish()
            let container = try context.store { try BuildGuideStore.open(at: $0) }
            let view = container.viewContext
            let guide = try guide(named: name, id: id, in: view)
            try AppStore.save(view, at: context.storeURL) { view.delete(guide) }
        case "import", "export":
            try GuidesTransfer.transfer.run(name, arguments: &arguments, context: context)
        default:
            throw AppError.usage(message: "unknown subcommand '\(name)' for guides")
        }
    }

    /// The guide named `name` (refused when several share it), or the one with `id`.
    static func guide(named name: String?, id: String?, in context: ObjectContext) throws -> Guide {
        try NamedObject.resolve(Guide.self, kind: "guide", name: name, id: id, in: context) { name in
            FetchRequest<Guide>(predicate: #Predicate { $0.name == name })
        }
    }

    /// The guide list as the app shows it, from the same results controller.
    static func listedTable(_ context: ObjectContext) throws -> ListedTable {
        try ListedTable(request: Guide.listRequest, context: context) { guide in
            let race = guide.race?.name ?? ""
            return ListedTable.Row(
                id: "\(guide.objectID.rowID)", text: race.isEmpty ? guide.name : "\(guide.name) — \(race)",
                fields: [
                    ("name", .string(guide.name)), ("race", race.isEmpty ? .null : .string(race)),
                    ("units", .array(guide.units.map { .string($0.name) })),
                ])
        }
    }
}
