import FolioAppSupport
import FolioStore
import Foundation

/// `folio locations import|export`: rows of `description`, `category`,
/// `latitude`, `longitude`, `address` and `date` (ISO 8601; left out: now),
/// checked as `add` checks them. A store the import makes holds only them.
@MainActor
enum LocationsTransfer {
    static let transfer = AppTransfer(
        noun: "locations", fields: ["description", "category", "latitude", "longitude", "address", "date"],
        table: { url in try LocationsCommands.listedTable(try LocationsStore.open(at: url, readOnly: true).viewContext) },
        write: importLocations)

    struct Row {
        var description: String, category: String, latitude: Double, longitude: Double, address: String, date: Date
    }

    static func importLocations(_ records: [ImportRecord], at url: URL, progress: ImportProgress) throws -> Int {
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let inputs = try AppTransfer.checked(records, progress: progress) { record in
            let category = try record.text("category")
            guard SampleData.locationCategories.contains(category) else {
                throw record.problem(
                    "category",
                    "'\(AppError.shown(category))' is not a category; one of: \(SampleData.locationCategories.joined(separator: ", "))")
            }
            let date = try record.text("date", default: "")
            return Row(
                description: try TextInput.limited(try record.text("description", default: ""), field: "description"),
                category: category,
                latitude: try record.decimal("latitude", in: -90...90),
                longitude: try record.decimal("longitude", in: -180...180),
                address: try TextInput.limited(try record.text("address", default: ""), field: "address"),
                date: date.isEmpty ? now : try Arguments.date(date, named: "date"))
        }
        let container = try AppStore.open(schema: Location.schema, at: url) { _ in }
        return try AppTransfer.batchInsert(inputs, into: container.viewContext, at: url, progress: progress) {
            (input, values: inout BatchInsertValues<Location>) in
            values[\.locationDescription] = input.description
            values[\.category] = input.category
            values[\.latitude] = input.latitude
            values[\.longitude] = input.longitude
            values[\.address] = input.address
            values[\.date] = input.date
        }
    }
}
