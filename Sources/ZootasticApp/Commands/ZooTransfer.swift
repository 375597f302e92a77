import FolioAppSupport
import FolioStore
import Foundation

/// `folio zoo import|export`: rows of `commonName`, `habitat`, `order`,
/// `family` and `zoos` (names). An animal's classification is the one with
/// its order and family, its zoos those with its names; either is made
/// when the store has none. The batch insert request sets no to-manys, so
/// this import saves objects, still in one transaction.
@MainActor
enum ZooTransfer {
    static let transfer = AppTransfer(
        noun: "animals", fields: ["commonName", "habitat", "order", "family", "zoos"],
        table: { url in try ZooCommands.listedTable(try ZooStore.open(at: url, readOnly: true).viewContext) },
        write: importAnimals)

    struct Row {
        var name: String, habitat: String, order: String, family: String, zoos: [String]
    }

    struct Kind: Hashable {
        var order: String, family: String
    }

    static func importAnimals(_ records: [ImportRecord], at url: URL, progress: ImportProgress) throws -> Int {
        let rows = try AppTransfer.checked(records, progress: progress) { record in
            Row(
                name: try TextInput.visible(try record.text("commonName"), field: "commonName"),
                habitat: try TextInput.limited(try record.text("habitat", default: ""), field: "habitat"),
                order: try TextInput.visible(try record.text("order"), field: "order"),
                family: try TextInput.limited(try record.text("family", default: ""), field: "family"),
                zoos: try record.list("zoos").map { try TextInput.visible($0, field: "zoos") })
        }
        guard !rows.isEmpty else { return 0 }
        let container = try AppStore.open(schema: Animal.schema, at: url) { _ in }
        let context = container.viewContext
        try AppTransfer.transaction(context, at: url, progress: progress) {
            // Looked up inside the transaction: what another process saved meanwhile is used, never duplicated.
            var kinds: [Kind: Classification] = [:]
            for classification in try context.fetch(FetchRequest<Classification>(sortBy: [SortDescriptor(\Classification.family)])) {
                let kind = Kind(order: classification.order, family: classification.family)
                if kinds[kind] == nil { kinds[kind] = classification }
            }
            var zoos = Dictionary(try context.fetch(FetchRequest<Zoo>()).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            for row in rows {
                let animal = Animal(context: context)
                animal.commonName = row.name
                animal.habitat = row.habitat
                let kind = Kind(order: row.order, family: row.family)
                animal.classification =
                    kinds[kind]
                    ?? {
                        let classification = Classification(context: context)
                        classification.order = row.order
                        classification.family = row.family
                        kinds[kind] = classification
                        return classification
                    }()
                animal.zoos = Set(
                    row.zoos.map { name in
                        zoos[name]
                            ?? {
                                let zoo = Zoo(context: context)
                                zoo.name = name
                                zoos[name] = zoo
                                return zoo
                            }()
                    })
            }
        }
        return rows.count
    }
}
