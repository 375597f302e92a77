import FolioAppSupport
import FolioStore
import Foundation

/// Opening, seeding and changing a BuildGuide store.
///
/// ```swift
/// let container = try BuildGuideStore.open(at: url)
/// try BuildGuideStore.addUnit("Pylon", toGuideNamed: "Cannon Rush", in: container.viewContext, at: url)
/// ```
@MainActor
public enum BuildGuideStore {
    /// Opens the store, seeding a new one with the races and the sample guides.
    /// `readOnly` is for commands that only print: nothing is written to an existing store.
    /// With a `replica` file beside a `postgresql://` store, it works on that local copy and syncs.
    public static func open(at url: URL, replica: URL? = nil, readOnly: Bool = false) throws -> PersistentContainer {
        try AppStore.open(schema: Guide.schema, at: url, replica: replica, readOnly: readOnly) { context in
            var races: [String: Race] = [:]
            for record in SampleData.races {
                let race = Race(context: context)
                race.name = record.name
                races[record.name] = race
            }
            for record in SampleData.guides {
                let guide = Guide(context: context)
                guide.name = record.name
                guide.race = races[record.race]
            }
        }
    }

    /// The race named `name`; ``AppError/notFound(kind:name:)`` otherwise.
    public static func race(named name: String, in context: ObjectContext) throws -> Race {
        guard let race = try context.fetch(FetchRequest<Race>(predicate: #Predicate { $0.name == name })).first else {
            // Name the races there are: a typo or the wrong case is then plain.
            let races = try context.fetch(FetchRequest<Race>(sortBy: [SortDescriptor(\Race.name)])).map(\.name)
            throw AppError.invalidValue(option: "--race", value: name, reason: "not a race; one of: \(races.joined(separator: ", "))")
        }
        return race
    }

    /// The first guide (by name order) named `name`; ``AppError/notFound(kind:name:)`` otherwise.
    public static func guide(named name: String, in context: ObjectContext) throws -> Guide {
        var request = Guide.listRequest
        request.predicate = #Predicate { $0.name == name }
        guard let guide = try context.fetch(request).first else { throw AppError.notFound(kind: "guide", name: name) }
        return guide
    }

    /// The catalogue entry named `unit` for `race`, or nil.
    public static func catalogueUnit(_ unit: String, race: String) -> SampleData.UnitRecord? {
        SampleData.races.first { $0.name == race }?.units.first { $0.name == unit }
    }

    /// Adds a guide with its build order (unit names of its race's catalogue) and saves.
    @discardableResult
    public static func addGuide(
        named name: String, race raceName: String?, units: [String] = [],
        to context: ObjectContext, at url: URL
    ) throws -> Guide {
        try AppStore.save(context, at: url, try addingGuide(named: name, race: raceName, units: units, to: context))
    }

    /// The write ``addGuide(named:race:units:to:at:)`` saves: the name is
    /// checked now, the rest inside the write transaction (``AppStore``'s saves).
    public static func addingGuide(
        named name: String, race raceName: String?, units: [String] = [],
        to context: ObjectContext
    ) throws -> @MainActor () throws -> Guide {
        let trimmed = try TextInput.limited(name.trimmingCharacters(in: .whitespaces), field: "NAME")
        guard !trimmed.isEmpty else { throw AppError.invalidValue(option: "NAME", value: name, reason: "must not be empty") }
        return {
            let race = try raceName.map { try self.race(named: $0, in: context) }
            let guide = Guide(context: context)
            guide.name = trimmed
            guide.race = race
            try setBuildOrder(units, of: guide, in: context)
            return guide
        }
    }

    /// Changes a guide's name, race and build order and saves; a nil value
    /// is left as stored, so an edit of one never writes back another that
    /// someone else changed meanwhile. `check` runs first inside the write
    /// transaction (a form refusing a change it has not shown).
    ///
    ///     try BuildGuideStore.updateGuide(guide, race: "Zerg", units: ["Drone"], in: context, at: url)
    public static func updateGuide(
        _ guide: Guide, name: String? = nil, race raceName: String? = nil, units: [String]? = nil,
        in context: ObjectContext, at url: URL, checking check: @escaping () throws -> Void = {}
    ) throws {
        try AppStore.save(
            context, at: url, try updatingGuide(guide, name: name, race: raceName, units: units, in: context, checking: check))
    }

    /// The write ``updateGuide(_:name:race:units:in:at:checking:)`` saves, to run inside a write transaction.
    public static func updatingGuide(
        _ guide: Guide, name: String? = nil, race raceName: String? = nil, units: [String]? = nil,
        in context: ObjectContext,
        checking check: @escaping () throws -> Void = {}
    ) throws -> @MainActor () throws -> Void {
        if let name { _ = try TextInput.limited(name, field: "Name") }
        return {
            try check()
            if let name { guide.name = name }
            if let raceName, raceName != guide.race?.name { guide.race = try race(named: raceName, in: context) }
            if let units {
                try setBuildOrder(units, of: guide, in: context)
            } else if raceName != nil {
                try setBuildOrder(guide.units.map(\.name), of: guide, in: context)  // refuses another race's units
            }
        }
    }

    /// Gives `guide` the build order `units`, each a unit of the guide's
    /// race: steps it has keep their objects (a reorder moves them), new
    /// ones are made, the rest deleted. Runs inside a write transaction.
    static func setBuildOrder(_ units: [String], of guide: Guide, in context: ObjectContext) throws {
        let race = guide.race?.name
        let records = try units.map { unit in
            guard let race else {
                throw AppError.invalidValue(option: "Race", value: "", reason: "a build order needs a race; choose one first")
            }
            guard let record = catalogueUnit(unit, race: race) else { throw AppError.notFound(kind: "\(race) unit", name: unit) }
            return record
        }
        var spare = guide.units
        var steps: [Unit] = []
        for record in records {
            if let index = spare.firstIndex(where: { $0.name == record.name }) {
                steps.append(spare.remove(at: index))
                continue
            }
            let step = Unit(context: context)
            step.name = record.name
            step.type = record.type
            steps.append(step)
        }
        guard steps.map(\.objectID) != guide.units.map(\.objectID) else { return }
        guide.units = steps
        for step in spare { context.delete(step) }
    }

    /// Appends `unit` (from the guide's race's catalogue) to a guide's build order and saves.
    public static func addUnit(_ unit: String, to guide: Guide, in context: ObjectContext, at url: URL) throws {
        // Inside the write transaction: the guide's race and build order are the latest saved.
        try AppStore.save(context, at: url) {
            guard let race = guide.race?.name else {
                throw AppError.invalidValue(option: "NAME", value: guide.name, reason: "the guide has no race; choose one first")
            }
            guard let record = catalogueUnit(unit, race: race) else {
                throw AppError.notFound(kind: "\(race) unit", name: unit)
            }
            let step = Unit(context: context)
            step.name = record.name
            step.type = record.type
            guide.units.append(step)
        }
    }

    /// Deletes the first guide named `name` (and its build order) and saves.
    public static func deleteGuide(named name: String, from context: ObjectContext, at url: URL) throws {
        try AppStore.save(context, at: url) { context.delete(try guide(named: name, in: context)) }
    }
}
