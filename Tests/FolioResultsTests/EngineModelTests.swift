import FolioResults
import FolioTestSupport
import Testing

/// Random batches against a plain model: after each batch the report, applied
/// to the old sections by UITableView's rules, must give the new sections.
@Suite struct EngineModelTests {
    struct Config: CustomStringConvertible {
        var name: String
        var sections: Int?  // nil: unsectioned
        var values: Int
        var initial: Int
        /// Batches, and the largest batch as a share of the rows (the operations of every tenth batch).
        var batches = 1500
        var largestShare = 0.0
        var description: String { name }
    }

    struct Object {
        var value: Int
        var group: Int
        var member: Bool
    }

    static let configs = [
        Config(name: "few sections", sections: 4, values: 8, initial: 25),
        Config(name: "many sections", sections: 16, values: 40, initial: 60),
        Config(name: "unsectioned", sections: nil, values: 12, initial: 30),
        // Sections big enough to be edited in place, batches of up to 10% of the rows.
        Config(name: "big sections", sections: 3, values: 3000, initial: 3000, batches: 120, largestShare: 0.10),
    ]

    @Test(arguments: configs)
    func randomBatchesKeepTheTableConsistent(config: Config) throws {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed, config.name)
        let engine = ResultsEngine<Int, Int, Int>(fixedSection: config.sections == nil ? 0 : nil)
        // The same batches on engines that always edit in place, always rebuild, or
        // share every batch's sections among threads: the same reports.
        typealias Engine = ResultsEngine<Int, Int, Int>
        let ways: [(Engine.EditStrategy, Engine.EditLanes)] = [
            (.inPlace, .exactly(1)), (.rebuild, .exactly(1)), (.inPlace, .exactly(3)), (.automatic, .exactly(2)),
        ]
        let twins = ways.map { strategy, lanes in
            let twin = Engine(fixedSection: config.sections == nil ? 0 : nil)
            twin.editStrategy = strategy
            twin.editLanes = lanes
            return twin
        }
        var model: [Int: Object] = [:]
        var nextID = 0
        func newObject() -> Object {
            Object(
                value: .random(in: 0..<config.values, using: &random),
                group: .random(in: 0..<(config.sections ?? 1), using: &random),
                member: .random(in: 0..<5, using: &random) > 0)
        }
        func row(_ id: Int) -> ResultsRow<Int, Int, Int>? {
            guard let object = model[id], object.member else { return nil }
            return ResultsRow(id: id, key: object.value, section: config.sections == nil ? 0 : object.group)
        }
        // The live IDs in an order the seed alone decides (a dictionary's
        // order changes from process to process), so a seed replays exactly.
        var live: [Int] = []
        var slot: [Int: Int] = [:]
        func addLive(_ id: Int) {
            slot[id] = live.count
            live.append(id)
        }
        func removeLive(_ id: Int) {
            guard let index = slot.removeValue(forKey: id) else { return }
            let last = live.removeLast()
            if index < live.count {
                live[index] = last
                slot[last] = index
            }
        }
        for _ in 0..<config.initial {
            model[nextID] = newObject()
            addLive(nextID)
            nextID += 1
        }
        engine.load(live.compactMap(row))
        engine.checkInvariants()
        for twin in twins { twin.load(live.compactMap(row)) }

        for batch in 0..<config.batches {
            let old = engine.snapshot()
            var changed: [Int: Bool] = [:]  // id -> the object itself changed
            let largest = max(25, Int(Double(model.count) * config.largestShare))
            let operations = Int.random(in: 1...(batch % 10 == 0 ? largest : 6), using: &random)
            for _ in 0..<operations {
                let id = live.randomElement(using: &random) ?? 0
                switch Int.random(in: 0..<8, using: &random) {
                case 0:
                    model[nextID] = newObject()
                    addLive(nextID)
                    changed[nextID] = true
                    nextID += 1
                case 1:
                    model[id] = nil
                    removeLive(id)
                    changed[id] = true
                case 2:
                    model[id]?.value = .random(in: 0..<config.values, using: &random)
                    changed[id] = true
                case 3:
                    model[id]?.group = .random(in: 0..<(config.sections ?? 1), using: &random)
                    changed[id] = true
                case 4:
                    model[id]?.member.toggle()
                    changed[id] = true
                case 5:
                    changed[id] = true  // touched, keys unchanged
                case 6:
                    // A related object's key changed: keys move, the object itself did not.
                    model[id]?.value = .random(in: 0..<config.values, using: &random)
                    changed[id] = changed[id] ?? false
                default:
                    model[id]?.value = .random(in: 0..<config.values, using: &random)
                    model[id]?.group = .random(in: 0..<(config.sections ?? 1), using: &random)
                    changed[id] = true
                }
            }
            let before = Dictionary(uniqueKeysWithValues: changed.keys.map { ($0, engine.row(for: $0)) })
            let rowChanges = changed.keys.sorted().shuffled(using: &random).map {
                ResultsRowChange(id: $0, row: row($0), objectChanged: changed[$0]!)
            }
            let report = engine.apply(rowChanges)
            engine.checkInvariants()
            for twin in twins {
                #expect(twin.apply(rowChanges) == report, "batch \(batch): \(twin.editStrategy) differs")
                twin.checkInvariants()
            }

            let new = engine.snapshot()
            let expected = Self.sortedSections(model: model, sectioned: config.sections != nil)
            #expect(new.map(\.section) == expected.map(\.section), "batch \(batch)")
            #expect(new.map(\.ids) == expected.map(\.ids), "batch \(batch)")
            let applied = try ResultsBatchApplier.apply(report, to: old, dataSource: new)
            #expect(applied.map(\.ids) == new.map(\.ids), "batch \(batch): \(report.objectChanges)")
            try Self.checkContract(report, before: before, after: { engine.row(for: $0) }, changed: changed)
            if applied.map(\.ids) != new.map(\.ids) { return }
        }
    }

    static func sortedSections(model: [Int: Object], sectioned: Bool) -> [(section: Int, ids: [Int])] {
        var groups: [Int: [(Int, Int)]] = [:]
        for (id, object) in model where object.member {
            groups[sectioned ? object.group : 0, default: []].append((object.value, id))
        }
        if !sectioned && groups.isEmpty { groups[0] = [] }
        return groups.keys.sorted().map { key in (key, groups[key]!.sorted { $0 < $1 }.map(\.1)) }
    }

    /// The per-object rules of the contract.
    static func checkContract(
        _ report: ResultsChangeSet<Int, Int>,
        before: [Int: ResultsRow<Int, Int, Int>?],
        after: (Int) -> ResultsRow<Int, Int, Int>?,
        changed: [Int: Bool]
    ) throws {
        var kinds: [Int: [ResultsChangeType]] = [:]
        for change in report.objectChanges { kinds[change.id, default: []].append(change.type) }
        for (id, types) in kinds {
            let old = before[id] ?? nil, new = after(id)
            let keysChanged = old?.key != new?.key || old?.section != new?.section
            switch types.sorted(by: { $0.rawValue < $1.rawValue }) {
            case [.delete]: #expect(old != nil && new == nil, "delete of \(id)")
            case [.insert]: #expect(old == nil && new != nil, "insert of \(id)")
            case [.delete, .insert]: #expect(old != nil && new != nil && keysChanged, "delete + insert of \(id)")
            case [.move]: #expect(keysChanged, "move of \(id) whose keys did not change")
            case [.update]: #expect(old != nil && new != nil && (changed[id] == true || keysChanged), "update of \(id)")
            default: Issue.record("object \(id) reported as \(types)")
            }
        }
        for change in report.objectChanges where change.type == .move {
            #expect(change.indexPath != change.newIndexPath, "move with equal paths: \(change)")
        }
        for (id, isChanged) in changed where isChanged && kinds[id] == nil {
            #expect((before[id] ?? nil) == nil && after(id) == nil, "changed object \(id) went unreported")
        }
    }
}
