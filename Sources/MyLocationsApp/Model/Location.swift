import FolioStore
import Foundation

/// A tagged place: MyLocations' entity (the placemark is kept as an address line).
///
/// ```swift
/// let place = Location(context: context)
/// place.locationDescription = "Coit Tower"
/// place.category = "Landmark"
/// place.latitude = 37.80239
/// ```
public final class Location: ManagedObject {
    /// What the user wrote; may be empty ("(No Description)").
    @Managed public var locationDescription: String
    /// One of the picker's categories; the section.
    @Managed public var category: String
    /// Degrees north, -90...90.
    @Managed public var latitude: Double
    /// Degrees east, -180...180.
    @Managed public var longitude: Double
    /// When it was tagged.
    @Managed public var date: Date
    /// The address line; empty shows the coordinates instead.
    @Managed public var address: String

    /// Location's entity.
    override public class var entity: EntityDescription {
        EntityDescription(
            Location.self,
            properties: [
                .attribute(\Location.locationDescription, "locationDescription", defaultValue: ""),
                .attribute(\Location.category, "category", defaultValue: "No Category", indexed: true, rules: [.notEmpty]),
                .attribute(\Location.latitude, "latitude", defaultValue: 0, rules: [.range(-90...90)]),
                .attribute(\Location.longitude, "longitude", defaultValue: 0, rules: [.range(-180...180)]),
                .attribute(\Location.date, "date", defaultValue: Date(timeIntervalSince1970: 0), indexed: true),
                .attribute(\Location.address, "address", defaultValue: ""),
            ])
    }

    /// The schema of a MyLocations store.
    public static let schema = Schema(name: "MyLocations", [Location.self])

    /// The Locations list: by category, then date.
    public static var listRequest: FetchRequest<Location> {
        FetchRequest(sortBy: [SortDescriptor(\Location.category), SortDescriptor(\Location.date)])
    }

    /// The section key path of the list.
    public static var sectionKeyPath: PartialKeyPath<Location> { \Location.category }

    /// The cell's first line: the description, or "(No Description)".
    public var titleLine: String {
        locationDescription.isEmpty ? "(No Description)" : locationDescription
    }

    /// The cell's second line: the address, or the coordinates.
    public var detailLine: String {
        address.isEmpty ? String(format: "Lat: %.8f, Long: %.8f", latitude, longitude) : address
    }
}
