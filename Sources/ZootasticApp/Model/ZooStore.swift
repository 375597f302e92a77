import FolioAppSupport
import FolioStore
import Foundation

/// Opening, seeding and changing a Zootastic store.
///
/// ```swift
/// let container = try ZooStore.open(at: url)
/// try ZooStore.addAnimal(name: "Okapi", habitat: "Forest", order: "Artiodactyla", to: container.viewContext, at: url)
/// ```
@MainActor
public enum ZooStore {
    /// Opens the store, seeding a new one with the seed's zoos, classifications and animals.
    /// `readOnly` is for commands that only print: nothing is written to an existing store.
    /// With a `replica` file beside a `postgresql://` store, it works on that local copy and syncs.
    public static func open(at url: URL, replica: URL? = nil, readOnly: Bool = false) throws -> PersistentContainer {
        try AppStore.open(schema: Animal.schema, at: url, replica: replica, readOnly: readOnly) { context in
            var zoos: [String: Zoo] = [:]
            for record in SampleData.zoos {
                let zoo = Zoo(context: context)
                zoo.name = record.name
                zoo.location = record.location
                zoos[record.name] = zoo
            }
            var families: [String: Classification] = [:]
            for record in SampleData.classifications {
                let classification = Classification(context: context)
                classification.scientificClassification = record.scientificClassification
                classification.order = record.order
                classification.family = record.family
                families[record.family] = classification
            }
            for record in SampleData.animals {
                let animal = Animal(context: context)
                animal.commonName = record.commonName
                animal.habitat = record.habitat
                animal.classification = families[record.family]
                animal.zoos = Set(record.zoos.compactMap { zoos[$0] })
            }
        }
    }

    /// The first classification whose order is `order`, or nil.
    public static func classification(order: String, in context: ObjectContext) throws -> Classification? {
        try context.fetch(
            FetchRequest<Classification>(
                predicate: #Predicate { $0.order == order },
                sortBy: [SortDescriptor(\Classification.family)])
        ).first
    }

    /// Adds an animal in the classification of `order` (created when new) and saves.
    @discardableResult
    public static func addAnimal(name: String, habitat: String, order: String, to context: ObjectContext, at url: URL) throws -> Animal {
        try AppStore.save(context, at: url, try addingAnimal(name: name, habitat: habitat, order: order, to: context))
    }

    /// The write that adds an animal: the values are checked now, and what
    /// it returns runs inside the write transaction (``AppStore``'s saves),
    /// where the order is looked up, so concurrent adds of a new order make
    /// one classification.
    public static func addingAnimal(
        name: String, habitat: String, order: String,
        to context: ObjectContext
    ) throws -> @MainActor () throws -> Animal {
        let name = name.trimmingCharacters(in: .whitespaces), order = order.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw AppError.invalidValue(option: "--name", value: name, reason: "must not be empty") }
        guard !order.isEmpty else { throw AppError.invalidValue(option: "--order", value: order, reason: "must not be empty") }
        for (value, option) in [(name, "--name"), (habitat, "--habitat"), (order, "--order")] {
            _ = try TextInput.limited(value, field: option)
        }
        return {
            let animal = Animal(context: context)
            animal.commonName = name
            animal.habitat = habitat
            animal.classification = try classification(order: order, in: context) ?? newClassification(order, in: context)
            return animal
        }
    }

    /// Changes an animal's name, habitat and order (the classification of
    /// that order, created when new) and saves: a new order moves it to that
    /// section. A nil value is left as stored, so an edit of one field never
    /// writes back another that someone else changed meanwhile. `check` runs
    /// first inside the write transaction (a form refusing a change it has not shown).
    ///
    ///     try ZooStore.updateAnimal(manatee, habitat: "North Pool", in: context, at: url)
    public static func updateAnimal(
        _ animal: Animal, name: String? = nil, habitat: String? = nil, order: String? = nil,
        in context: ObjectContext, at url: URL, checking check: @escaping () throws -> Void = {}
    ) throws {
        try AppStore.save(
            context, at: url,
            try updatingAnimal(
                animal, name: name, habitat: habitat, order: order,
                in: context, checking: check))
    }

    /// The write ``updateAnimal(_:name:habitat:order:in:at:checking:)`` saves, checked now, to run inside the write transaction.
    public static func updatingAnimal(
        _ animal: Animal, name: String? = nil, habitat: String? = nil, order: String? = nil,
        in context: ObjectContext,
        checking check: @escaping () throws -> Void = {}
    ) throws -> @MainActor () throws -> Void {
        let name = name?.trimmingCharacters(in: .whitespaces), order = order?.trimmingCharacters(in: .whitespaces)
        if name?.isEmpty == true { throw AppError.invalidValue(option: "Common Name", value: "", reason: "must not be empty") }
        if order?.isEmpty == true { throw AppError.invalidValue(option: "Order", value: "", reason: "must not be empty") }
        for (value, label) in [(name, "Common Name"), (habitat, "Habitat"), (order, "Order")] {
            if let value { _ = try TextInput.limited(value, field: label) }
        }
        return {
            try check()
            if let name { animal.commonName = name }
            if let habitat { animal.habitat = habitat }
            if let order, animal.classification?.order != order {
                animal.classification = try classification(order: order, in: context) ?? newClassification(order, in: context)
            }
        }
    }

    /// Deletes every animal named `name`; ``AppError/notFound(kind:name:)`` when there is none.
    public static func deleteAnimal(named name: String, from context: ObjectContext, at url: URL) throws {
        try AppStore.save(context, at: url) {
            let animals = try context.fetch(FetchRequest<Animal>(predicate: #Predicate { $0.commonName == name }))
            guard !animals.isEmpty else { throw AppError.notFound(kind: "animal", name: name) }
            for animal in animals { context.delete(animal) }
        }
    }

    /// Renames an order in every classification that has it: their animals
    /// move section. Onto an order that already exists it refuses (the two
    /// would become one) unless `merge` says that is meant (`--merge`).
    public static func renameOrder(
        _ old: String, to new: String, merging merge: Bool = false,
        in context: ObjectContext, at url: URL
    ) throws {
        let new = try TextInput.visible(new, field: "NEW")
        try AppStore.save(context, at: url) {
            let classifications = try context.fetch(FetchRequest<Classification>(predicate: #Predicate { $0.order == old }))
            guard !classifications.isEmpty else { throw AppError.notFound(kind: "order", name: old) }
            let existing = try context.count(for: FetchRequest<Classification>(predicate: #Predicate { $0.order == new }))
            if new != old && existing > 0 && !merge {
                throw AppError.invalidValue(
                    option: "NEW", value: new,
                    reason: "an order with that name exists; renaming '\(AppError.shown(old))' to it merges the two: add --merge to do that"
                )
            }
            for classification in classifications { classification.order = new }
        }
    }

    private static func newClassification(_ order: String, in context: ObjectContext) -> Classification {
        let classification = Classification(context: context)
        classification.order = order
        return classification
    }
}
