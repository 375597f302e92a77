import FolioAppSupport
import FolioStore
import Foundation

/// Opening, seeding and changing a MyLocations store.
///
/// ```swift
/// let container = try LocationsStore.open(at: url)
/// try LocationsStore.add(input, to: container.viewContext, at: url)
/// ```
@MainActor
public enum LocationsStore {
    /// Opens the store, seeding a new one with the sample locations.
    /// `readOnly` is for commands that only print: nothing is written to an existing store.
    /// With a `replica` file beside a `postgresql://` store, it works on that local copy and syncs.
    public static func open(at url: URL, replica: URL? = nil, readOnly: Bool = false) throws -> PersistentContainer {
        try AppStore.open(schema: Location.schema, at: url, replica: replica, readOnly: readOnly) { context in
            for record in SampleData.locations {
                let location = Location(context: context)
                location.locationDescription = record.description
                location.category = record.category
                location.latitude = record.latitude
                location.longitude = record.longitude
                location.address = record.address
                location.date = Arguments.parseDate(record.date) ?? Date(timeIntervalSince1970: 0)
            }
        }
    }

    /// Inserts a location and saves.
    @discardableResult
    public static func add(_ input: LocationInput, to context: ObjectContext, at url: URL) throws -> Location {
        try AppStore.save(context, at: url, adding(input, to: context))
    }

    /// The write that inserts a location, to run inside a write transaction (``AppStore``'s saves).
    public static func adding(_ input: LocationInput, to context: ObjectContext) -> @MainActor () throws -> Location {
        {
            let location = Location(context: context)
            input.apply(to: location)
            return location
        }
    }

    /// Deletes the location whose id (row number) is `id`.
    public static func delete(id: String, from context: ObjectContext, at url: URL) throws {
        guard let row = Int64(id), row > 0 else {
            throw AppError.invalidValue(option: "ID", value: id, reason: "not a location id (a positive number from `list`)")
        }
        try AppStore.save(context, at: url) {
            let object = try? context.existingObject(with: ObjectID(entityName: "Location", rowID: row))
            guard let location = object as? Location else { throw AppError.notFound(kind: "location with id", name: id) }
            context.delete(location)
        }
    }
}
