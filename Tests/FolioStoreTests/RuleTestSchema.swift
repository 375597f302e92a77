import FolioStore

/// A keeper for the delete-rule tests, with one relationship to
/// ``RuleMember`` per rule and shape:
/// - `nullified` (to-many, nullify), `cascaded` (to-many, cascade),
///   `denied` (to-many, deny), each with a to-one nullify inverse;
/// - `line` (ordered to-many, deny) with a to-one nullify inverse;
/// - `partner` (to-one, deny) with a to-one cascade inverse;
/// - `badges` (many-to-many, nullify) with a deny inverse.
final class RuleKeeper: ManagedObject {
    @Managed var name: String
    @Managed var nullified: Set<RuleMember>
    @Managed var cascaded: Set<RuleMember>
    @Managed var denied: Set<RuleMember>
    @Managed var line: [RuleMember]
    @Managed var partner: RuleMember?
    @Managed var badges: Set<RuleMember>

    override class var entity: EntityDescription {
        EntityDescription(
            RuleKeeper.self,
            properties: [
                .attribute(\RuleKeeper.name, "name"),
                .toMany(\RuleKeeper.nullified, "nullified", inverse: \RuleMember.nullifier, deleteRule: .nullify),
                .toMany(\RuleKeeper.cascaded, "cascaded", inverse: \RuleMember.cascader, deleteRule: .cascade),
                .toMany(\RuleKeeper.denied, "denied", inverse: \RuleMember.denier, deleteRule: .deny),
                .toMany(\RuleKeeper.line, "line", inverse: \RuleMember.liner, deleteRule: .deny),
                .toOne(\RuleKeeper.partner, "partner", inverse: \RuleMember.partner, deleteRule: .deny),
                .toMany(\RuleKeeper.badges, "badges", inverse: \RuleMember.badges, deleteRule: .nullify),
            ])
    }
}

/// The other side of every ``RuleKeeper`` relationship.
final class RuleMember: ManagedObject {
    @Managed var name: String
    @Managed var nullifier: RuleKeeper?
    @Managed var cascader: RuleKeeper?
    @Managed var denier: RuleKeeper?
    @Managed var liner: RuleKeeper?
    @Managed var partner: RuleKeeper?
    @Managed var badges: Set<RuleKeeper>

    override class var entity: EntityDescription {
        EntityDescription(
            RuleMember.self,
            properties: [
                .attribute(\RuleMember.name, "name"),
                .toOne(\RuleMember.nullifier, "nullifier", inverse: \RuleKeeper.nullified),
                .toOne(\RuleMember.cascader, "cascader", inverse: \RuleKeeper.cascaded),
                .toOne(\RuleMember.denier, "denier", inverse: \RuleKeeper.denied),
                .toOne(\RuleMember.liner, "liner", inverse: \RuleKeeper.line),
                .toOne(\RuleMember.partner, "partner", inverse: \RuleKeeper.partner, deleteRule: .cascade),
                .toMany(\RuleMember.badges, "badges", inverse: \RuleKeeper.badges, deleteRule: .deny),
            ])
    }
}

enum RuleTestSchema {
    static func make() -> Schema { Schema([RuleKeeper.self, RuleMember.self]) }
}
