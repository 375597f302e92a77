import FolioAppSupport
import FolioStore
import Foundation

/// `folio guides import|export`: rows of `name`, `race` (a race's name, or
/// null) and `units` (the build order: unit names of the race's catalogue).
/// A store the import makes has the races and only the imported guides. The
/// batch insert request sets no ordered to-many, so this import saves
/// objects, still in one transaction.
@MainActor
enum GuidesTransfer {
    static let transfer = AppTransfer(
        noun: "guides", fields: ["name", "race", "units"],
        table: { url in try GuidesCommands.listedTable(try BuildGuideStore.open(at: url, readOnly: true).viewContext) },
        write: importGuides)

    struct Row {
        var name: String, race: String?, units: [SampleData.UnitRecord]
    }

    static func importGuides(_ records: [ImportRecord], at url: URL, progress: ImportProgress) throws -> Int {
        let races = SampleData.races.map(\.name)
        let rows = try AppTransfer.checked(records, progress: progress) { record in
            let name = try TextInput.visible(try record.text("name"), field: "name")
            let race = try record.optionalText("race")
            if let race, !races.contains(race) {
                throw record.problem("race", "'\(AppError.shown(race))' is not a race; one of: \(races.joined(separator: ", "))")
            }
            let units = try record.list("units").map { unit in
                guard let race else { throw record.problem("units", "a build order needs a race") }
                guard let entry = BuildGuideStore.catalogueUnit(unit, race: race) else {
                    throw record.problem("units", "'\(AppError.shown(unit))' is not a \(race) unit")
                }
                return entry
            }
            return Row(name: name, race: race, units: units)
        }
        guard !rows.isEmpty else { return 0 }
        let container = try AppStore.open(schema: Guide.schema, at: url) { context in
            for record in SampleData.races {
                let race = Race(context: context)
                race.name = record.name
            }
        }
        let context = container.viewContext
        try AppTransfer.transaction(context, at: url, progress: progress) {
            var known: [String: Race] = [:]
            for race in try context.fetch(FetchRequest<Race>()) where known[race.name] == nil { known[race.name] = race }
            for row in rows {
                let guide = Guide(context: context)
                guide.name = row.name
                if let name = row.race {
                    guide.race =
                        known[name]
                        ?? {
                            let race = Race(context: context)
                            race.name = name
                            known[name] = race
                            return race
                        }()
                }
                guide.units = row.units.map { entry in
                    let step = Unit(context: context)
                    step.name = entry.name
                    step.type = entry.type
                    return step
                }
            }
        }
        return rows.count
    }
}
