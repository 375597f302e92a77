import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// A batch delete applies the delete rules in SQL exactly as deleting the
/// same objects in a context and saving does: random keepers and members
/// related through every rule and shape (nullify, cascade, deny; to-many,
/// ordered, one-to-one, many-to-many), the same objects deleted both ways on
/// two copies of the store, and the outcome compared: both refused (and
/// nothing written), or both stores the same afterwards.
@MainActor
@Suite struct BatchDeleteRuleTests {
    /// Every object's name and every relationship by names, sorted (the ordered one in order).
    static func dump(_ c: ObjectContext) throws -> [String] {
        c.refreshAllObjects()
        func names(_ set: Set<RuleMember>) -> String { set.map(\.name).sorted().joined(separator: ",") }
        let keepers = try c.fetch(FetchRequest<RuleKeeper>(sortBy: [SortDescriptor(\.name)])).map { k in
            "K \(k.name) n[\(names(k.nullified))] c[\(names(k.cascaded))] d[\(names(k.denied))] l[\(k.line.map(\.name).joined(separator: ","))] "
                + "p[\(k.partner?.name ?? "")] b[\(names(k.badges))]"
        }
        let members = try c.fetch(FetchRequest<RuleMember>(sortBy: [SortDescriptor(\.name)])).map { m in
            "M \(m.name) \(m.nullifier?.name ?? "-") \(m.cascader?.name ?? "-") \(m.denier?.name ?? "-") \(m.liner?.name ?? "-") "
                + "\(m.partner?.name ?? "-") b[\(m.badges.map(\.name).sorted().joined(separator: ","))]"
        }
        return keepers + members
    }

    /// The rows as stored, IDs and foreign keys (not positions, which a save
    /// renumbers), through the sqlite3 tool, waited for by suspending.
    static func rawDump(_ path: String) async throws -> String {
        let child = try StoreChildProcess(
            executable: URL(fileURLWithPath: "/usr/bin/sqlite3"),
            arguments: [
                path,
                """
                SELECT 'K', id, name, partner FROM RuleKeeper ORDER BY id;
                SELECT 'M', id, name, nullifier, cascader, denier, liner, partner FROM RuleMember ORDER BY id;
                SELECT 'B', a, b FROM _RuleKeeper_badges ORDER BY a, b;
                SELECT 'end';
                """,
            ])
        child.closeInput()
        let ended = await child.waitForLine { $0 == "end" } != nil
        await child.finish()
        try #require(ended && child.terminationStatus == 0, "sqlite3 \(path): \(child.lines.map(\.line))")
        return child.lines.map(\.line).joined(separator: "\n")
    }

    /// The same random store, built from the seed.
    static func build(_ c: ObjectContext, seed: UInt64) throws {
        var rng = StoreSplitMix64(seed: seed)
        let keepers = (0..<5).map { i -> RuleKeeper in
            let k = RuleKeeper(context: c); k.name = "K\(i)"; return k
        }
        for i in 0..<12 {
            let m = RuleMember(context: c)
            m.name = "M\(i)"
            func pick() -> RuleKeeper? { Int.random(in: 0..<3, using: &rng) == 0 ? keepers.randomElement(using: &rng) : nil }
            m.nullifier = pick()
            m.cascader = pick()
            if Int.random(in: 0..<3, using: &rng) == 0 { m.denier = pick() }
            m.liner = pick()
            if Int.random(in: 0..<4, using: &rng) == 0, let k = pick(), k.partner == nil { m.partner = k }
            if Int.random(in: 0..<4, using: &rng) == 0, let k = keepers.randomElement(using: &rng) { m.badges.insert(k) }
        }
        try c.save()
    }

    @Test func batchDeletesAgreeWithContextDeletes() async throws {
        let seed = StoreSplitMix64.seedFromEnvironment()
        print("seed:", seed)
        var rng = StoreSplitMix64(seed: seed)
        var outcomes: [String: Int] = [:]
        let dir = try StoreTemporaryDirectory()
        for round in 0..<60 {
            await Task.yield()  // a turn for the other main-actor tests
            let storeSeed = rng.next()
            let batchStore = try PersistentContainer(schema: RuleTestSchema.make(), path: dir.path("batch-\(round).sqlite"))
            let contextStore = try PersistentContainer(schema: RuleTestSchema.make(), path: dir.path("context-\(round).sqlite"))
            try Self.build(batchStore.viewContext, seed: storeSeed)
            try Self.build(contextStore.viewContext, seed: storeSeed)
            let before = try Self.dump(batchStore.viewContext)
            let rawBefore = try await Self.rawDump(dir.path("batch-\(round).sqlite"))
            #expect(before == (try Self.dump(contextStore.viewContext)))
            let keepers = Bool.random(using: &rng)
            let chosen = (0..<(keepers ? 5 : 12)).filter { _ in Int.random(in: 0..<3, using: &rng) == 0 }.map {
                (keepers ? "K" : "M") + "\($0)"
            }

            let batchResult: Result<Void, StoreError>
            let contextResult: Result<Void, StoreError>
            let b = batchStore.viewContext, c = contextStore.viewContext
            if keepers {
                batchResult = Result {
                    _ = try b.execute(BatchDeleteRequest<RuleKeeper>(predicate: #Predicate { chosen.contains($0.name) }))
                }
                .mapError { $0 as! StoreError }
                for k in try c.fetch(FetchRequest<RuleKeeper>(predicate: #Predicate { chosen.contains($0.name) })) { c.delete(k) }
            } else {
                let ids = try b.fetchIDs(FetchRequest<RuleMember>(predicate: #Predicate { chosen.contains($0.name) }))
                batchResult = Result { _ = try b.execute(BatchDeleteRequest<RuleMember>(objectIDs: ids)) }.mapError { $0 as! StoreError }
                for m in try c.fetch(FetchRequest<RuleMember>(predicate: #Predicate { chosen.contains($0.name) })) { c.delete(m) }
            }
            contextResult = Result { try c.save() }.mapError { $0 as! StoreError }
            let label = "round \(round), deleting \(chosen), seed \(seed)"
            switch (batchResult, contextResult) {
            case (.success, .success):
                outcomes["deleted", default: 0] += 1
                #expect(try Self.dump(b) == (try Self.dump(c)), "\(label)")
                let rawBatch = try await Self.rawDump(dir.path("batch-\(round).sqlite"))
                #expect(rawBatch == (try await Self.rawDump(dir.path("context-\(round).sqlite"))), "\(label)")
                // The batch's context merged what it did: its objects are the stored ones.
                #expect(b.registeredObjects.allSatisfy { !$0.isDeleted }, "\(label)")
            case (.failure(.deleteDenied), .failure(.deleteDenied)):
                outcomes["denied", default: 0] += 1
                #expect(try Self.dump(b) == before, "\(label): a refused batch wrote something")
                #expect(try await Self.rawDump(dir.path("batch-\(round).sqlite")) == rawBefore, "\(label): a refused batch wrote something")
            default:
                Issue.record("\(label): batch \(batchResult), context \(contextResult)")
            }
        }
        print("outcomes:", outcomes.sorted { $0.key < $1.key })
        #expect(outcomes["deleted", default: 0] > 5 && outcomes["denied", default: 0] > 5)
    }
}
