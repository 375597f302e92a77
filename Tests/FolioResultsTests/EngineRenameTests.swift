import FolioResults
import FolioTestSupport
import Testing

/// A save gives new objects permanent IDs. Among rows with equal keys a
/// temporary ID sorts after every saved one, and so does the permanent ID
/// when IDs rise in the order saves commit: the row stays and nothing is
/// reported. When they do not (another process drew a lower ID and
/// committed first), the renamed row moves, and the report says where.
@Suite struct EngineRenameTests {
    static let temporaryBase = 1_000_000

    /// A row whose permanent ID sorts before a saved row with an equal key moves before it.
    @Test func aPermanentIDBelowASavedRowWithAnEqualKeyMovesTheRow() throws {
        let engine = ResultsEngine<Int, String, String>()
        engine.load([
            ResultsRow(id: 5, key: "okapi", section: "forest"), ResultsRow(id: 9, key: "zebu", section: "forest"),
            ResultsRow(id: Self.temporaryBase, key: "okapi", section: "forest"),
        ])
        #expect(engine.snapshot().map(\.ids) == [[5, Self.temporaryBase, 9]])
        let (renamed, moved) = engine.renameIDs([Self.temporaryBase: 3])
        engine.checkInvariants()
        #expect(renamed == 1)
        #expect(engine.snapshot().map(\.ids) == [[3, 5, 9]])
        #expect(
            moved.objectChanges == [
                ObjectChange(type: .move, id: 3, indexPath: IndexPath(row: 1, section: 0), newIndexPath: IndexPath(row: 0, section: 0))
            ])

        // The usual case: a permanent ID above every saved one stays where its temporary one was, unreported.
        engine.load([
            ResultsRow(id: 5, key: "okapi", section: "forest"), ResultsRow(id: Self.temporaryBase, key: "okapi", section: "forest"),
        ])
        let (_, stayed) = engine.renameIDs([Self.temporaryBase: 6])
        #expect(stayed.isEmpty && engine.snapshot().map(\.ids) == [[5, 6]])
    }

    /// Random sections of rows with few distinct keys, new rows renamed to
    /// random free IDs: the engine ends sorted, and its report, applied to the
    /// rows before (each renamed row under its new ID) by UITableView's rules,
    /// gives the rows after. Permanent IDs above every saved one, rising as
    /// the temporary ones do, report nothing.
    @Test func randomRenamesEndSortedAndReportEveryMove() throws {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed)
        for trial in 0..<2_000 {
            let engine = ResultsEngine<Int, Int, Int>()
            let saved = Array((0..<200).shuffled(using: &random).prefix(.random(in: 0...40, using: &random)))
            let fresh = (0..<Int.random(in: 1...12, using: &random)).map { Self.temporaryBase + $0 }
            var rows: [Int: (key: Int, section: Int)] = [:]
            for id in saved + fresh { rows[id] = (.random(in: 0..<3, using: &random), .random(in: 0..<3, using: &random)) }
            engine.load(rows.map { ResultsRow(id: $0.key, key: $0.value.key, section: $0.value.section) }.shuffled(using: &random))
            let rising = Bool.random(using: &random)
            let free = (0..<200).filter { !saved.contains($0) }.shuffled(using: &random)
            let permanent = rising ? fresh.indices.map { 200 + $0 } : Array(free.prefix(fresh.count))
            let mapping = Dictionary(uniqueKeysWithValues: zip(fresh, permanent))

            let before = engine.snapshot()
            let (renamed, moved) = engine.renameIDs(mapping)
            engine.checkInvariants()
            let after = engine.snapshot()
            let expected = Dictionary(grouping: rows.map { (mapping[$0.key] ?? $0.key, $0.value) }, by: \.1.section)
                .sorted { $0.key < $1.key }
                .map { ($0.key, $0.value.sorted { ($0.1.key, $0.0) < ($1.1.key, $1.0) }.map(\.0)) }
            #expect(renamed == fresh.count, "trial \(trial), seed \(random.seed)")
            #expect(
                after.map(\.section) == expected.map(\.0) && after.map(\.ids) == expected.map(\.1), "trial \(trial), seed \(random.seed)")
            let renamedBefore = before.map { (section: $0.section, ids: $0.ids.map { mapping[$0] ?? $0 }) }
            let applied = try ResultsBatchApplier.apply(moved, to: renamedBefore, dataSource: after)
            #expect(applied.map(\.ids) == after.map(\.ids), "trial \(trial), seed \(random.seed): \(moved.objectChanges)")
            if rising { #expect(moved.isEmpty, "trial \(trial), seed \(random.seed): \(moved.objectChanges)") }
            for change in moved.objectChanges { #expect(change.type != .update && change.indexPath != change.newIndexPath) }
        }
    }
}
