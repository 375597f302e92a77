import FolioAppSupport
import FolioStore
import Foundation

/// Opening, seeding and changing a Planets store.
///
/// ```swift
/// let container = try PlanetsStore.open(at: url)
/// try PlanetsStore.add("Vulcan", to: container.viewContext, at: url)
/// ```
@MainActor
public enum PlanetsStore {
    /// Opens the store, seeding a new one with the nine planets in order.
    /// `readOnly` is for commands that only print: nothing is written to an existing store.
    /// With a `replica` file beside a `postgresql://` store, it works on that local copy and syncs.
    public static func open(at url: URL, replica: URL? = nil, readOnly: Bool = false) throws -> PersistentContainer {
        try AppStore.open(schema: Planet.schema, at: url, replica: replica, readOnly: readOnly) { context in
            for (index, name) in SampleData.planets.enumerated() {
                let planet = Planet(context: context)
                planet.name = name
                planet.position = index
            }
        }
    }

    /// The planet named `name`, or nil.
    public static func planet(named name: String, in context: ObjectContext) throws -> Planet? {
        try context.fetch(FetchRequest<Planet>(predicate: #Predicate { $0.name == name })).first
    }

    /// Adds `name` at the end of the list and saves.
    ///
    /// Throws ``AppError/alreadyExists(kind:name:)`` when the name is taken, or
    /// ``AppError/invalidValue(option:value:reason:)`` when it is blank.
    @discardableResult
    public static func add(_ name: String, to context: ObjectContext, at url: URL) throws -> Planet {
        let trimmed = try TextInput.limited(name.trimmingCharacters(in: .whitespaces), field: "NAME")
        guard !trimmed.isEmpty else { throw AppError.invalidValue(option: "NAME", value: name, reason: "must not be empty") }
        // Decided inside the write transaction: a concurrent add cannot take the name or the position meanwhile.
        return try AppStore.save(context, at: url) {
            if try planet(named: trimmed, in: context) != nil { throw AppError.alreadyExists(kind: "planet", name: trimmed) }
            var request = Planet.listRequest
            request.sortDescriptors = [SortDescriptor(\Planet.position, order: .reverse)]
            request.fetchLimit = 1
            let last = try context.fetch(request).first?.position ?? -1
            let planet = Planet(context: context)
            planet.name = trimmed
            planet.position = last + 1
            return planet
        }
    }

    /// Deletes the planet named `name` and saves; ``AppError/notFound(kind:name:)`` when there is none.
    public static func delete(named name: String, from context: ObjectContext, at url: URL) throws {
        try AppStore.save(context, at: url) {
            guard let planet = try planet(named: name, in: context) else { throw AppError.notFound(kind: "planet", name: name) }
            context.delete(planet)
        }
    }

    /// Moves `planet` to `index` in `ordered` (the list as shown) and
    /// renumbers positions; the caller saves.
    ///
    /// - Complexity: O(n) in the number of planets.
    public static func move(_ ordered: [Planet], from source: Int, to destination: Int) {
        var planets = ordered
        let moved = planets.remove(at: source)
        planets.insert(moved, at: destination)
        for (index, planet) in planets.enumerated() where planet.position != index {
            planet.position = index
        }
    }
}
