import FolioAdapters
import FolioAppSupport
import FolioTerminal

/// The guide editor, a form as the tutorial's mixes static and dynamic
/// sections: "Guide Details" (the name field, a race picker), "Build Order"
/// (the units, deleted with `d` and reordered with K/J within the section)
/// and "Actions" ("Add a Unit" pushes the race's units, or alerts "Race not
/// selected"). Nothing is saved until Done; Esc discards.
@MainActor
enum GuideForm {
    static func make(title: String, values: [String: String], units: [String]) -> FormController {
        let form = FormController(
            title: title,
            sections: [
                .init(
                    title: "Guide Details",
                    fields: [
                        .text("name", "Name", placeholder: "Guide name"),
                        .choice("race", "Race", hint: "choose the race") { form in pickRace(for: form) },
                    ]),
                // A unit's type is its race's: the same name in another race may differ.
                .list("units", title: "Build Order") { form, unit in
                    BuildGuideStore.catalogueUnit(unit, race: form.value("race"))?.type
                },
                .init(
                    title: "Actions",
                    fields: [
                        .button("addUnit", "Add a Unit", hint: "add a unit") { form in addUnit(to: form) }
                    ]),
            ], values: values, lists: ["units": units])
        // A build order holds its race's units: the two are the user's, and saved, together.
        form.keptTogether = [["race", "units"]]
        return form
    }

    static func values(of guide: Guide) -> [String: String] {
        ["name": guide.name, "race": guide.race?.name ?? ""]
    }

    static func lists(of guide: Guide) -> [String: [String]] {
        ["units": guide.units.map(\.name)]
    }

    private static func pickRace(for form: FormController) {
        let current = form.value("race")
        let picker = PickerController(
            title: "Select Race", items: SampleData.races.map(\.name),
            selected: current.isEmpty ? nil : current)
        picker.onChoose = { [weak form] name in
            guard let form else { return }
            form.navigationController?.pop()
            changeRace(of: form, to: name)
        }
        form.navigationController?.push(picker)
    }

    /// A new race: a build order holding another race's units would be
    /// wrong, so it asks first and then empties it.
    private static func changeRace(of form: FormController, to name: String) {
        let old = form.value("race")
        guard name != old else { return }
        let steps = form.items("units")
        guard !steps.isEmpty else { return form.setValue(name, for: "race") }
        let guide = form.value("name").isEmpty ? "this guide" : form.value("name")
        let sheet = AlertController(
            title: "Change Race",
            message:
                "Changing \(guide) to \(name) removes its build order: \(steps.count) \(old.isEmpty ? "other" : old) unit\(steps.count == 1 ? "" : "s").",
            preferredStyle: .actionSheet)
        sheet.addAction(
            AlertAction(title: "Change to \(name)", style: .destructive) { [weak form] _ in
                form?.setItems([], for: "units")
                form?.setValue(name, for: "race")
            })
        sheet.addAction(AlertAction(title: "Cancel", style: .cancel))
        form.present(sheet)
    }

    private static func addUnit(to form: FormController) {
        let race = form.value("race")
        guard let catalogue = SampleData.races.first(where: { $0.name == race }) else {
            let alert = AlertController(title: "Race not selected", message: "Please select a race first", preferredStyle: .alert)
            alert.addAction(AlertAction(title: "OK", style: .cancel))
            return form.present(alert)
        }
        let picker = PickerController(title: "Select Unit", items: catalogue.units.map(\.name), details: catalogue.units.map(\.type))
        picker.onChoose = { [weak form] name in
            form?.appendItem(name, to: "units")
            form?.navigationController?.pop()
        }
        form.navigationController?.push(picker)
    }
}
