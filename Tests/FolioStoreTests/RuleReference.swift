/// An independent model of Core Data's delete rules and inverse maintenance
/// for the ``RuleKeeper`` / ``RuleMember`` relationships, by name: deleting
/// an object applies `nullify` and `cascade` at once, and `deny` is checked at
/// save against the relationships as they would be stored.
struct RuleReference: Equatable {
    struct Member: Equatable {
        var nullifier: String?
        var cascader: String?
        var denier: String?
        var liner: String?
        var partner: String?
    }

    struct Badge: Hashable, Comparable {
        var keeper: String
        var member: String
        static func < (a: Badge, b: Badge) -> Bool { (a.keeper, a.member) < (b.keeper, b.member) }
    }

    /// Live keepers with their ordered line and partner.
    var lines: [String: [String]] = [:]
    var partners: [String: String] = [:]
    var members: [String: Member] = [:]
    var badges: Set<Badge> = []
    /// Deleted since the last save, and the line each deleted keeper keeps (deny).
    var deletedKeepers: Set<String> = []
    var deletedMembers: Set<String> = []

    var keepers: Set<String> { Set(lines.keys) }

    func isLiveKeeper(_ k: String?) -> Bool { k.map { lines[$0] != nil && !deletedKeepers.contains($0) } ?? false }
    func isLiveMember(_ m: String) -> Bool { members[m] != nil && !deletedMembers.contains(m) }
    var liveKeepers: [String] { lines.keys.filter { !deletedKeepers.contains($0) }.sorted() }
    var liveMembers: [String] { members.keys.filter { !deletedMembers.contains($0) }.sorted() }

    // MARK: Changes

    mutating func insertKeeper(_ k: String) { lines[k] = [] }
    mutating func insertMember(_ m: String) { members[m] = Member() }

    mutating func setLiner(_ m: String, _ k: String?) {
        guard members[m]!.liner != k else { return }
        if let old = members[m]!.liner { lines[old]!.removeAll { $0 == m } }
        if let k { lines[k]!.append(m) }
        members[m]!.liner = k
    }

    mutating func setPartner(_ m: String, _ k: String?) {
        guard members[m]!.partner != k else { return }
        if let old = members[m]!.partner { partners[old] = nil }
        if let k {
            if let previous = partners[k] { members[previous]!.partner = nil }
            partners[k] = m
        }
        members[m]!.partner = k
    }

    /// Keeper-side assignment of the ordered line.
    mutating func setLine(_ k: String, _ line: [String]) {
        for m in lines[k]! where !line.contains(m) { members[m]!.liner = nil }
        lines[k] = lines[k]!.filter(line.contains)
        for m in line where members[m]!.liner != k { setLiner(m, k) }
        lines[k] = line
    }

    mutating func deleteKeeper(_ k: String) {
        guard isLiveKeeper(k) else { return }
        deletedKeepers.insert(k)
        var cascade: [String] = []
        for (m, v) in members {
            if v.nullifier == k { members[m]!.nullifier = nil }
            if v.cascader == k { members[m]!.cascader = nil; cascade.append(m) }
        }
        badges = badges.filter { $0.keeper != k }
        for m in cascade.sorted() { deleteMember(m) }
    }

    mutating func deleteMember(_ m: String) {
        guard isLiveMember(m) else { return }
        deletedMembers.insert(m)
        members[m]!.nullifier = nil
        members[m]!.cascader = nil
        members[m]!.denier = nil
        setLiner(m, nil)
        let partner = members[m]!.partner
        setPartner(m, nil)
        if let partner { deleteKeeper(partner) }
    }

    // MARK: Saving

    /// The (entity, key) pairs whose deny rule refuses the save, empty if it may go ahead.
    var denials: Set<[String]> {
        var found: Set<[String]> = []
        for k in deletedKeepers {
            if members.contains(where: { isLiveMember($0.key) && $0.value.denier == k }) { found.insert(["RuleKeeper", "denied"]) }
            if lines[k]!.contains(where: isLiveMember) { found.insert(["RuleKeeper", "line"]) }
            if let m = partners[k], isLiveMember(m) { found.insert(["RuleKeeper", "partner"]) }
        }
        for m in deletedMembers where badges.contains(where: { $0.member == m && isLiveKeeper($0.keeper) }) {
            found.insert(["RuleMember", "badges"])
        }
        return found
    }

    /// After a save that passed: the deleted objects and whatever still joins them are gone.
    mutating func commit() {
        for k in deletedKeepers { lines[k] = nil; partners[k] = nil }
        for m in deletedMembers { members[m] = nil }
        badges = badges.filter { lines[$0.keeper] != nil && members[$0.member] != nil }
        deletedKeepers = []
        deletedMembers = []
    }

    // MARK: Reading

    func members(where key: KeyPath<Member, String?>, is k: String) -> Set<String> {
        Set(liveMembers.filter { members[$0]![keyPath: key] == k })
    }
}
