import FolioAppSupport
import FolioResults
import FolioStore

/// `folio zoo list|add|delete|rename-order`.
@MainActor
enum ZooCommands {
    static func run(_ name: String, arguments: inout Arguments, context: AppContext) throws {
        switch name {
        case "list":
            try ListedTable.runList(&arguments, context: context) { url in
                let container = try context.store { try ZooStore.open(at: $0, readOnly: true) }
                return try listedTable(container.viewContext)
            }
        case "add":
            let animal = try TextInput.visible(try arguments.requiredOption("--name"), field: "--name")
            let habitat = try TextInput.limited(try arguments.requiredOption("--habitat"), field: "--habitat")
            let order = try TextInput.visible(try arguments.requiredOption("--order"), field: "--order")
            try arguments.finish()
            let container = try context.store { try ZooStore.open(at: $0) }
            try ZooStore.addAnimal(name: animal, habitat: habitat, order: order, to: container.viewContext, at: context.storeURL)
        case "delete":
            let name = try arguments.option("--name")
            let id = try arguments.option("--id")
            try arguments.finish()
            let container = try context.store { try ZooStore.open(at: $0) }
            let view = container.viewContext
            let animal = try NamedObject.resolve(Animal.self, kind: "animal", name: name, id: id, in: view) { name in
                FetchRequest<Animal>(predicate: #Predicate { $0.commonName == name })
            }
            try AppStore.save(view, at: context.storeURL) { view.delete(animal) }
        case "rename-order":
            let merge = arguments.flag("--merge")
            let old = try arguments.positional("OLD")
            let new = try arguments.positional("NEW")
            try arguments.finish()
            let container = try context.store { try ZooStore.open(at: $0) }
            try ZooStore.renameOrder(old, to: new, merging: merge, in: container.viewContext, at: context.storeURL)
        case "import", "export":
            try ZooTransfer.transfer.run(name, arguments: &arguments, context: context)
        default:
            throw AppError.usage(message: "unknown subcommand '\(name)' for zoo")
        }
    }

    /// The animals table as Zootastic shows it, from the same results controller.
    static func listedTable(_ context: ObjectContext) throws -> ListedTable {
        try ListedTable(request: Animal.listRequest, context: context, sectionNameKeyPath: Animal.sectionKeyPath) { animal in
            let order = animal.classification?.order ?? ""
            return ListedTable.Row(
                id: "\(animal.objectID.rowID)", text: "\(animal.commonName) — \(animal.habitat)",
                fields: [
                    ("commonName", .string(animal.commonName)), ("habitat", .string(animal.habitat)),
                    ("order", .string(order)), ("family", .string(animal.classification?.family ?? "")),
                    ("zoos", .array(animal.zoos.map(\.name).sorted().map { .string($0) })),
                ])
        }
    }
}
