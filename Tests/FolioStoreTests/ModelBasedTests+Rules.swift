import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Delete rules × relationship moves × deletes in one save, against
/// ``RuleReference``: every rule on a to-one and a to-many side, an ordered
/// to-many and a many-to-many. The keepers' to-many sides are loaded before
/// every step in half the runs and never read in the others (their state is
/// then checked through fetches and, after each save, through a fresh context).
extension ModelBasedTests {
    @Test func deleteRulesMovesAndDeletesInOneSaveMatchAReference() async throws {
        let seed = StoreSplitMix64.seedFromEnvironment()
        print("seed:", seed)
        for run in 0..<24 {
            await Task.yield()  // a turn for the other main-actor tests
            var rng = StoreSplitMix64(seed: seed &+ UInt64(run))
            guard try ruleRun(loaded: run % 2 == 0, steps: 90, &rng, label: "seed \(seed), run \(run)") else { return }
        }
    }

    /// One run; false (after recording the mismatch) when Folio and the reference part.
    private func ruleRun(loaded: Bool, steps: Int, _ rng: inout StoreSplitMix64, label: String) throws -> Bool {
        let container = try PersistentContainer(schema: RuleTestSchema.make(), path: nil)
        let c = container.viewContext
        var model = RuleReference(), committed = RuleReference()
        var next = 0
        let trace = ProcessInfo.processInfo.environment["FOLIO_TRACE"] != nil
        for step in 0..<steps {
            let keepers = Dictionary(uniqueKeysWithValues: try c.fetch(FetchRequest<RuleKeeper>()).map { ($0.name, $0) })
            let members = Dictionary(uniqueKeysWithValues: try c.fetch(FetchRequest<RuleMember>()).map { ($0.name, $0) })
            func keeper() -> String? { Bool.random(using: &rng) ? model.liveKeepers.randomElement(using: &rng) : nil }
            let op = Int.random(in: 0..<100, using: &rng)
            if trace { print(label, "step", step, "op", op, model) }
            switch op {
            case 0..<12:
                next += 1
                RuleKeeper(context: c).name = "K\(next)"
                model.insertKeeper("K\(next)")
            case 12..<30:
                next += 1
                let m = RuleMember(context: c)
                m.name = "M\(next)"
                model.insertMember("M\(next)")
                if let k = keeper() { m.denier = keepers[k]; model.members[m.name]!.denier = k }
                if let k = keeper() { m.cascader = keepers[k]; model.members[m.name]!.cascader = k }
                if let k = keeper() { m.liner = keepers[k]; model.setLiner(m.name, k) }
            case 30..<58:
                guard let name = model.liveMembers.randomElement(using: &rng) else { continue }
                move(members[name]!, to: keeper(), keepers, fromEitherSide: loaded, &model, &rng)
            case 58..<65:
                guard let k = model.liveKeepers.randomElement(using: &rng) else { continue }
                c.delete(keepers[k]!)
                model.deleteKeeper(k)
            case 65..<72:
                guard let m = model.liveMembers.randomElement(using: &rng) else { continue }
                c.delete(members[m]!)
                model.deleteMember(m)
            case 72..<78:
                guard let k = model.liveKeepers.randomElement(using: &rng), let m = model.liveMembers.randomElement(using: &rng) else {
                    continue
                }
                let badge = RuleReference.Badge(keeper: k, member: m)
                let adding = !model.badges.contains(badge)
                if !loaded || Bool.random(using: &rng) {
                    if adding { members[m]!.badges.insert(keepers[k]!) } else { members[m]!.badges.remove(keepers[k]!) }
                } else {
                    if adding { keepers[k]!.badges.insert(members[m]!) } else { keepers[k]!.badges.remove(members[m]!) }
                }
                if adding { model.badges.insert(badge) } else { model.badges.remove(badge) }
            case 78..<82:
                guard let k = model.liveKeepers.randomElement(using: &rng) else { continue }
                var line = model.lines[k]!.shuffled(using: &rng)
                if let m = model.liveMembers.randomElement(using: &rng), !line.contains(m) {
                    line.insert(m, at: Int.random(in: 0...line.count, using: &rng))
                }
                if !line.isEmpty && Bool.random(using: &rng) { line.removeFirst() }
                keepers[k]!.line = line.map { members[$0]! }
                model.setLine(k, line)
            case 82..<93:
                let denials = model.denials
                do {
                    try c.save()
                    #expect(denials.isEmpty, "\(label), step \(step): the save passed, the reference denies \(denials)")
                    model.commit()
                    committed = model
                    guard try storedStateMatches(model, container, "\(label), step \(step) (stored)") else { return false }
                } catch let StoreError.deleteDenied(entity, key) {
                    #expect(
                        denials.contains([entity, key]), "\(label), step \(step): denied by \(entity).\(key), the reference: \(denials)")
                    c.rollback()
                    model = committed
                }
            case 93..<97:
                c.rollback()
                model = committed
            default:
                c.processPendingChanges()
            }
            c.checkInvariants()
            guard try contextMatches(model, c, loaded: loaded, "\(label), step \(step) (op \(op))") else { return false }
        }
        return true
    }

    /// Moves a member in one of its relationships, from its side or (when
    /// `fromEitherSide`) the keeper's, which reads the keeper's side first.
    private func move(
        _ m: RuleMember, to k: String?, _ keepers: [String: RuleKeeper], fromEitherSide: Bool,
        _ model: inout RuleReference, _ rng: inout StoreSplitMix64
    ) {
        let target = k.flatMap { keepers[$0] }
        let fromKeeper = fromEitherSide && target != nil && Bool.random(using: &rng)
        switch Int.random(in: 0..<5, using: &rng) {
        case 0:
            if fromKeeper { target!.nullified.insert(m) } else { m.nullifier = target }
            model.members[m.name]!.nullifier = k
        case 1:
            if fromKeeper { target!.cascaded.insert(m) } else { m.cascader = target }
            model.members[m.name]!.cascader = k
        case 2:
            if fromKeeper { target!.denied.insert(m) } else { m.denier = target }
            model.members[m.name]!.denier = k
        case 3:
            if fromKeeper { target!.line.append(m) } else { m.liner = target }
            model.setLiner(m.name, k)
        default:
            if fromKeeper { target!.partner = m } else { m.partner = target }
            model.setPartner(m.name, k)
        }
    }

    /// The context's live objects and relationships equal the reference's.
    private func contextMatches(_ model: RuleReference, _ c: ObjectContext, loaded: Bool, _ label: String) throws -> Bool {
        let keepers = try c.fetch(FetchRequest<RuleKeeper>(sortBy: [SortDescriptor(\.name)]))
        let members = try c.fetch(FetchRequest<RuleMember>(sortBy: [SortDescriptor(\.name)]))
        var ok = keepers.map(\.name) == model.liveKeepers && members.map(\.name) == model.liveMembers
        #expect(ok, "\(label): objects")
        for m in members where ok {
            let r = model.members[m.name]!
            ok =
                m.nullifier?.name == r.nullifier && m.cascader?.name == r.cascader && m.denier?.name == r.denier
                && m.liner?.name == r.liner && m.partner?.name == r.partner
            #expect(ok, "\(label): \(m.name)'s to-ones")
        }
        for k in keepers where ok {
            let name = k.name
            ok = k.partner?.name == model.partners[name] && k.line.map(\.name) == model.lines[name]!
            #expect(
                ok,
                "\(label): \(name)'s partner \(k.partner?.name ?? "-") and line \(k.line.map(\.name)), the reference \(model.partners[name] ?? "-") \(model.lines[name]!)"
            )
            if loaded {
                ok =
                    ok && Set(k.nullified.map(\.name)) == model.members(where: \.nullifier, is: name)
                    && Set(k.cascaded.map(\.name)) == model.members(where: \.cascader, is: name)
                    && Set(k.denied.map(\.name)) == model.members(where: \.denier, is: name)
                    && Set(k.badges.map(\.name)) == Set(model.badges.filter { $0.keeper == name }.map(\.member))
                #expect(ok, "\(label): \(name)'s loaded to-manys")
            } else {
                let denied = try c.count(for: FetchRequest<RuleMember>(predicate: #Predicate { $0.denier?.name == name }))
                ok = ok && denied == model.members(where: \.denier, is: name).count
                #expect(ok, "\(label): members denied by \(name), fetched")
            }
        }
        return ok
    }

    /// A fresh context reads what the reference committed.
    private func storedStateMatches(_ model: RuleReference, _ container: PersistentContainer, _ label: String) throws -> Bool {
        let stored = try container.newBackgroundContext().performAndWait { bg -> RuleReference in
            var r = RuleReference()
            for k in try bg.fetch(FetchRequest<RuleKeeper>()) {
                r.lines[k.name] = k.line.map(\.name)
                r.partners[k.name] = k.partner?.name
                for m in k.badges { r.badges.insert(.init(keeper: k.name, member: m.name)) }
            }
            for m in try bg.fetch(FetchRequest<RuleMember>()) {
                r.members[m.name] = .init(
                    nullifier: m.nullifier?.name, cascader: m.cascader?.name, denier: m.denier?.name,
                    liner: m.liner?.name, partner: m.partner?.name)
            }
            return r
        }
        #expect(stored == model, "\(label)")
        return stored == model
    }
}
