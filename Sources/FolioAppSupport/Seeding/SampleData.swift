import Foundation

/// The facts every new store is seeded with, shipped inside the package.
///
/// The lists themselves are generated from `sample-data.json` by
/// `scripts/generate-sample-data` into `SampleData.generated.swift`;
/// this file holds the record types and the hand-made sample locations.
///
/// ```swift
/// for name in SampleData.planets { print(name) }   // Mercury, Venus, ...
/// ```
public enum SampleData {
    /// A zoo as seeded: `ZooRecord(name: "San Diego Zoo", location: "San Diego, CA")`.
    public struct ZooRecord: Sendable, Hashable {
        /// The zoo's name, e.g. "Lowry Park Zoo".
        public let name: String
        /// Where it is, e.g. "Tampa, FL".
        public let location: String
    }

    /// A classification as seeded; animals refer to it by `family`.
    ///
    /// `ClassificationRecord(scientificClassification: "Mammalia", order: "Primates", family: "Atelidae")`
    public struct ClassificationRecord: Sendable, Hashable {
        /// The class, e.g. "Mammalia".
        public let scientificClassification: String
        /// The order: Zootastic's section key, e.g. "Primates".
        public let order: String
        /// The family, e.g. "Atelidae".
        public let family: String
    }

    /// An animal as seeded: its classification by family and its zoos by name.
    public struct AnimalRecord: Sendable, Hashable {
        /// The row title, e.g. "Mantled Howler".
        public let commonName: String
        /// The row subtitle, e.g. "Primate Exhibit".
        public let habitat: String
        /// The family of its classification, e.g. "Atelidae".
        public let family: String
        /// The names of the zoos that keep it.
        public let zoos: [String]
    }

    /// A BuildGuide unit or structure: `UnitRecord(name: "Zealot", type: "Unit", image: "protoss_unit_zealot.jpg")`.
    public struct UnitRecord: Sendable, Hashable {
        /// The unit's name as in the source, e.g. "Brood lord".
        public let name: String
        /// "Unit", "Structure" or "Units", as in the source.
        public let type: String
        /// The image file name from the source catalogue.
        public let image: String
    }

    /// A race with its whole unit catalogue, in source order.
    public struct RaceRecord: Sendable, Hashable {
        /// "Protoss", "Terran" or "Zerg".
        public let name: String
        /// Every unit and structure of the race, duplicates kept.
        public let units: [UnitRecord]
    }

    /// A guide as seeded: `GuideRecord(name: "Cannon Rush", race: "Protoss")`.
    public struct GuideRecord: Sendable, Hashable {
        /// The guide's name.
        public let name: String
        /// The name of its race.
        public let race: String
    }

    /// A MyLocations sample location.
    public struct LocationRecord: Sendable, Hashable {
        /// The description; may be empty (shown as "(No Description)").
        public let description: String
        /// One of ``SampleData/locationCategories``.
        public let category: String
        /// Degrees, -90...90.
        public let latitude: Double
        /// Degrees, -180...180.
        public let longitude: Double
        /// A postal address; empty shows the coordinates instead.
        public let address: String
        /// When it was tagged, as ISO 8601.
        public let date: String
    }

    /// A handful of sample locations in several categories, one without a
    /// description and one without an address, so every cell form shows.
    public static let locations: [LocationRecord] = [
        LocationRecord(
            description: "Infinite Loop", category: "Apple Store", latitude: 37.33182, longitude: -122.03118,
            address: "1 Infinite Loop, Cupertino, CA 95014", date: "2025-03-14T10:20:00Z"),
        LocationRecord(
            description: "Golden Gate Park", category: "Park", latitude: 37.76904, longitude: -122.48348,
            address: "501 Stanyan St, San Francisco, CA 94117", date: "2025-04-02T15:05:00Z"),
        LocationRecord(
            description: "City Lights", category: "Bookstore", latitude: 37.79759, longitude: -122.40654,
            address: "261 Columbus Ave, San Francisco, CA 94133", date: "2025-04-18T18:45:00Z"),
        LocationRecord(
            description: "Coit Tower", category: "Landmark", latitude: 37.80239, longitude: -122.40582,
            address: "", date: "2025-05-01T09:30:00Z"),
        LocationRecord(
            description: "Dolores Park", category: "Park", latitude: 37.75962, longitude: -122.42692,
            address: "Dolores St & 19th St, San Francisco, CA 94114", date: "2025-05-20T12:00:00Z"),
        LocationRecord(
            description: "", category: "Bar", latitude: 37.77493, longitude: -122.41942,
            address: "", date: "2025-06-07T21:15:00Z"),
    ]
}
