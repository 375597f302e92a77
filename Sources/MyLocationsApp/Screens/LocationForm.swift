import FolioAdapters
import FolioAppSupport
import FolioTerminal
import Foundation

/// The form shared by the Tag tab and "Edit Location": description, category
/// (a picker pushed from a value1 row), latitude, longitude, address, date.
@MainActor
enum LocationForm {
    static func make(title: String, values: [String: String]) -> FormController {
        FormController(
            title: title,
            sections: [
                .init(
                    title: "Description",
                    fields: [
                        .text("description", "Description", placeholder: "(No Description)"),
                        .choice("category", "Category") { form in pickCategory(for: form) },
                    ]),
                .init(
                    title: "Location",
                    fields: [
                        .text("latitude", "Latitude", placeholder: "-90 to 90"),
                        .text("longitude", "Longitude", placeholder: "-180 to 180"),
                        .text("address", "Address", placeholder: "(none)"),
                        .text("date", "Date", placeholder: "ISO 8601, e.g. 2025-03-14T10:20:00Z"),
                    ]),
            ], values: values)
    }

    /// A blank form's values: no category, now.
    static func blankValues(now: Date = Date()) -> [String: String] {
        [
            "category": SampleData.locationCategories[0], "latitude": "0", "longitude": "0",
            "date": ISODate.text(Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))),
        ]
    }

    static func values(of location: Location) -> [String: String] {
        [
            "description": location.locationDescription, "category": location.category,
            "latitude": String(location.latitude), "longitude": String(location.longitude),
            "address": location.address, "date": ISODate.text(location.date),
        ]
    }

    static func input(from form: FormController) throws -> LocationInput {
        try LocationInput(
            description: form.value("description"), category: form.value("category"),
            latitude: form.value("latitude"), longitude: form.value("longitude"),
            address: form.value("address"), date: form.value("date"), naming: .form)
    }

    /// Writes into `location` the fields named by `keys` (the form's keys
    /// of the fields the user changed); the others are left as stored.
    static func write(_ input: LocationInput, _ keys: Set<String>, to location: Location) {
        for key in keys {
            switch key {
            case "description": location.locationDescription = input.description
            case "category": location.category = input.category
            case "latitude": location.latitude = input.latitude
            case "longitude": location.longitude = input.longitude
            case "address": location.address = input.address
            case "date": location.date = input.date
            default: break
            }
        }
    }

    private static func pickCategory(for form: FormController) {
        let picker = PickerController(
            title: "Choose Category", items: SampleData.locationCategories,
            selected: form.value("category"))
        picker.onChoose = { [weak form] category in
            form?.setValue(category, for: "category")
            form?.navigationController?.pop()
        }
        form.navigationController?.push(picker)
    }
}
