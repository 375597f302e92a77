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

    /// Checks typed values; errors name the option (`--latitude`) or field.
    public init(description: String, category: String, latitude: String, longitude: String,
                address: String, date: String, now: Date = Date()) throws {
        guard SampleData.locationCategories.contains(category) else {
            throw AppError.invalidValue(option: "--category", value: category,
                                        reason: "not a category; one of: \(SampleData.locationCategories.joined(separator: ", "))")
        }
        var arguments = Arguments(["--latitude", latitude, "--longitude", longitude])
        guard let lat = try arguments.doubleOption("--latitude", in: -90...90),
              let long = try arguments.doubleOption("--longitude", in: -180...180) else {
            throw AppError.usage(message: "missing --latitude or --longitude")
        }
        let trimmedDate = date.trimmingCharacters(in: .whitespaces)
        var when = now
        if !trimmedDate.isEmpty {
            guard let parsed = Arguments.parseDate(trimmedDate) else {
                throw AppError.invalidValue(option: "--date", value: date, reason: "not an ISO 8601 date such as 2025-03-14T10:20:00Z")
            }
            when = parsed
        }
        self.description = description
        self.category = category
        self.latitude = lat
        self.longitude = long
        self.address = address
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
