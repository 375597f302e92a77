import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Finding 11.1: the deny rule is checked against the relationship as the
/// save will store it, and both sides of a relationship stay in step when
/// one end is already deleted. Each case runs with the keeper's side loaded
/// before the changes and without.
@MainActor
@Suite struct DeleteRuleTests {
    /// Keepers "A" and "B" and member "m", saved; `relate` puts m in A's relationship.
    func store(loaded: Bool, _ relate: (RuleMember, RuleKeeper) -> Void) throws -> (ObjectContext, RuleKeeper, RuleKeeper, RuleMember) {
        let c = try PersistentContainer(schema: RuleTestSchema.make(), path: nil).viewContext
        let a = RuleKeeper(context: c), b = RuleKeeper(context: c), m = RuleMember(context: c)
        a.name = "A"; b.name = "B"; m.name = "m"
        relate(m, a)
        try c.save()
        c.refreshAllObjects()
        if loaded { _ = (a.denied.count, a.line.count, a.partner, a.badges.count, m.badges.count) }
        return (c, a, b, m)
    }

    /// The relationships with the deny rule on the side that is deleted, each
    /// with how to put m in it and how to move m to another keeper.
    static let denials: [(key: String, relate: (RuleMember, RuleKeeper) -> Void)] = [
        ("denied", { m, k in m.denier = k }),
        ("line", { m, k in m.liner = k }),
        ("partner", { m, k in m.partner = k }),
    ]

    @Test(arguments: [false, true], 0..<3)
    func deletingTheMemberAndItsKeeperInOneSaveIsAllowed(loaded: Bool, rule: Int) throws {
        for memberFirst in [true, false] {
            let (c, a, _, m) = try store(loaded: loaded, Self.denials[rule].relate)
            if memberFirst { c.delete(m); c.delete(a) } else { c.delete(a); c.delete(m) }
            c.checkInvariants()
            try c.save()
            #expect(try c.count(for: FetchRequest<RuleKeeper>()) == 1, "\(Self.denials[rule].key), member first: \(memberFirst)")
            #expect(try c.count(for: FetchRequest<RuleMember>()) == 0)
        }
    }

    @Test(arguments: [false, true], 0..<3)
    func movingTheMemberAwayAndDeletingItsKeeperInOneSaveIsAllowed(loaded: Bool, rule: Int) throws {
        for moveFirst in [true, false] {
            let (c, a, b, m) = try store(loaded: loaded, Self.denials[rule].relate)
            if moveFirst { Self.denials[rule].relate(m, b); c.delete(a) } else { c.delete(a); Self.denials[rule].relate(m, b) }
            c.checkInvariants()
            try c.save()
            #expect(try c.fetch(FetchRequest<RuleKeeper>()).map(\.name) == ["B"], "\(Self.denials[rule].key), move first: \(moveFirst)")
            c.refreshAllObjects()
            #expect(b.denied.count + b.line.count + (b.partner == nil ? 0 : 1) == 1)
        }
    }

    @Test(arguments: [false, true], 0..<3)
    func aMemberThatStaysDeniesTheDelete(loaded: Bool, rule: Int) throws {
        let (c, a, _, m) = try store(loaded: loaded, Self.denials[rule].relate)
        c.delete(a)
        #expect(throws: StoreError.deleteDenied(entity: "RuleKeeper", key: Self.denials[rule].key)) { try c.save() }
        #expect(a.isDeleted && !m.isDeleted, "the failed save keeps the changes")
        c.rollback()
        #expect(try c.count(for: FetchRequest<RuleKeeper>()) == 2)
    }

    @Test(arguments: [false, true])
    func aMemberWhoseManyToManyDeniesIsDeletedWithTheKeeperItBelongsTo(loaded: Bool) throws {
        let (c, a, _, m) = try store(loaded: loaded) { m, k in m.badges = [k] }
        c.delete(m)
        #expect(throws: StoreError.deleteDenied(entity: "RuleMember", key: "badges")) { try c.save() }
        c.delete(a)
        try c.save()
        #expect(try c.count(for: FetchRequest<RuleMember>()) == 0)
    }

    /// The inverse bookkeeping used to return early when the other end was
    /// deleted, so a loaded to-many kept members that had left it.
    @Test(arguments: [false, true], 0..<3)
    func aDeletedKeepersSideLetsGoOfAMemberThatLeaves(loaded: Bool, rule: Int) throws {
        let (c, a, b, m) = try store(loaded: loaded, Self.denials[rule].relate)
        c.delete(a)
        Self.denials[rule].relate(m, b)
        c.checkInvariants()
        #expect(!a.denied.contains(m) && !a.line.contains(m) && a.partner !== m, "\(Self.denials[rule].key)")
        let leaving = RuleMember(context: c)
        leaving.name = "n"
        leaving.denier = b
        b.denied = []
        #expect(leaving.denier == nil)
        c.checkInvariants()
    }

    @Test(arguments: [false, true])
    func cascadeDeletesOnlyTheMembersStillThereAndNullifyLetsGo(loaded: Bool) throws {
        let (c, a, b, m) = try store(loaded: loaded) { m, k in
            m.cascader = k; m.nullifier = k
        }
        let stays = RuleMember(context: c)
        stays.name = "stays"
        stays.cascader = a
        try c.save()
        if loaded { _ = (a.cascaded.count, a.nullified.count) }
        m.cascader = b
        c.delete(a)
        #expect(stays.isDeleted && !m.isDeleted)
        #expect(m.nullifier == nil)
        try c.save()
        #expect(try c.fetch(FetchRequest<RuleMember>()).map(\.name) == ["m"])
        #expect(b.cascaded.map(\.name) == ["m"])
    }
}
