import FolioAppSupport
import Foundation

/// A location as typed (command line or form), checked before anything is
/// written: category among the known ones, latitude -90…90, longitude -180…180,
/// date ISO 8601.
///
/// ```swift
/// let input = try LocationInput(description: "Pier 39", category: "Landmark",
///                               latitude: "37.8087", longitude: "-122.4098", address: "", date: "")
/// ```
public struct LocationInput: Sendable, Equatable {
    /// The description (may be empty).
    public var description: String
    /// A category from ``SampleData/locationCategories``.
    public var category: String
    /// Degrees north.
    public var latitude: Double
    /// Degrees east.
    public var longitude: Double
    /// The address line (may be empty).
    public var address: String
    /// When.
    public var date: Date

    /// What errors call the values: command-line options, or a form's fields.
    public enum Naming: Sendable {
        /// `--latitude`, `--category`...
        case commandLine
        /// "Latitude", "Category"...
        case form

        func name(_ option: String, _ label: String) -> String { self == .commandLine ? option : label }
    }

    /// Checks typed values; errors name the option (`--latitude`) or, with
    /// `naming: .form`, the form's field ("Latitude").
    public init(
        description: String, category: String, latitude: String, longitude: String,
        address: String, date: String, now: Date = Date(), naming: Naming = .commandLine
    ) throws {
        guard SampleData.locationCategories.contains(category) else {
            throw AppError.invalidValue(
                option: naming.name("--category", "Category"), value: category,
                reason: "not a category; one of: \(SampleData.locationCategories.joined(separator: ", "))")
        }
        let lat = try Arguments.decimal(latitude, named: naming.name("--latitude", "Latitude"), in: -90...90)
        let long = try Arguments.decimal(longitude, named: naming.name("--longitude", "Longitude"), in: -180...180)
        let trimmedDate = date.trimmingCharacters(in: .whitespaces)
        // Now to the second, as a typed date without a fraction.
        var when = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        if !trimmedDate.isEmpty {
            when = try Arguments.date(trimmedDate, named: naming.name("--date", "Date"))
        }
        self.description = try TextInput.limited(description, field: naming.name("--description", "Description"))
        self.address = try TextInput.limited(address, field: naming.name("--address", "Address"))
        self.category = category
        self.latitude = lat
        self.longitude = long
        self.date = when
    }

    /// Writes the values into `location`.
    @MainActor
    public func apply(to location: Location) {
        location.locationDescription = description
        location.category = category
        location.latitude = latitude
        location.longitude = longitude
        location.address = address
        location.date = date
    }
}
