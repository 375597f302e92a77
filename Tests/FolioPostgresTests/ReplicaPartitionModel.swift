import Foundation

/// What the partition test knows of its replicas' acknowledged saves, and
/// what may end where once they have all synced. Replicas sync in an order
/// the test does not see, so a key written on several replicas may end with
/// any writer's last value (the merge policy keeps the last one pushed), and
/// an object that a deletion on one replica met through a relationship made
/// on another (a cascade, or a deny that refuses the deletion on the server)
/// may go either way. Everything else is exact: a key written on one replica
/// only ends with its last value, an object no deletion reached is there, one
/// deleted by a save nothing could refuse is gone.
struct PartitionModel {
    struct Item {
        /// Per key (`value`, `shelf`, `keeper`, `lister`, `guardian`, `tag:G`), each replica's last write.
        var writes: [String: [Int: String]] = [:]
        /// Per relationship (`keeper`, `lister`, `guardian`), every group any replica gave it since
        /// the last heal, not only each one's last. A replica that deletes one of them follows its
        /// delete rule for the items it sees linked there: a cascade pushed before another
        /// replica's relink reached the server takes the item there, whatever a later save names;
        /// a nullify clears the key, and as a write of its own it can win over a relink pushed
        /// before it (the merge policy keeps the last writer's value).
        var linked: [String: Set<String>] = [:]
        /// The key's value at the last heal, for keys nobody wrote since.
        var base: [String: String] = [:]
        var deleted = false
        /// The group whose deletion's cascade took it here (the server may refuse that deletion).
        var deletedWith: String?
    }
    struct Group {
        var deleted = false
        /// Some save made it an item's guardian: a deletion of it may meet that deny on the server.
        var guarded = false
    }

    var items: [String: Item] = [:]
    var groups: [String: Group] = [:]

    /// Items and groups that may still be there, for picking what to change.
    var liveItems: [String] { items.filter { !$0.value.deleted || uncertain($0.value) }.keys.sorted() }
    var liveGroups: [String] { groups.filter { !$0.value.deleted || $0.value.guarded }.keys.sorted() }

    mutating func write(_ item: String, _ key: String, _ value: String, by replica: Int) {
        items[item, default: Item()].writes[key, default: [:]][replica] = value
        if ["keeper", "lister", "guardian"].contains(key) { items[item]!.linked[key, default: []].insert(value) }
        if key == "guardian" && value != "-" { groups[value, default: Group()].guarded = true }
    }

    /// A save that deleted `names` (cascades included); `group` names the group it deleted, if any.
    mutating func deleted(_ names: [String], group: String?) {
        for name in names {
            if groups[name] != nil {
                groups[name]!.deleted = true
            } else if items[name] != nil {
                items[name]!.deleted = true
                if items[name]!.deletedWith == nil { items[name]!.deletedWith = group }
            }
        }
    }

    /// A group that may be gone at the end.
    func mayBeGone(_ group: String) -> Bool { groups[group].map { $0.deleted } ?? true }

    /// Whether a deletion of the item may be undone (its cascade's group deletion refused by a deny on the server).
    func uncertain(_ item: Item) -> Bool { item.deletedWith.map { groups[$0]?.guarded ?? false } ?? false }

    /// Whether the item may meet a cascade through a keeper set on some replica (at any time
    /// since the last heal) to a group deleted on another.
    func atRisk(_ item: Item) -> Bool {
        uncertain(item) || everLinked(item, "keeper").contains { $0 != "-" && mayBeGone($0) }
    }

    /// The groups a relationship named at the last heal or in any write since.
    func everLinked(_ item: Item, _ key: String) -> Set<String> {
        (item.linked[key] ?? []).union(item.base[key].map { [$0] } ?? [])
    }

    /// The values a key may end with.
    func candidates(_ item: Item, _ key: String) -> Set<String> {
        if let writes = item.writes[key], !writes.isEmpty { return Set(writes.values) }
        return [item.base[key] ?? (key.hasPrefix("tag:") ? "0" : "-")]
    }

    /// What is wrong with the healed store `dump` (PartitionTestSchema's lines), by these facts.
    func problems(in dump: [String]) -> [String] {
        var problems: [String] = []
        let groupsThere = Set(dump.filter { $0.hasPrefix("g ") }.map { String($0.dropFirst(2)) })
        var itemsThere: [String: [String: String]] = [:]
        for line in dump where line.hasPrefix("i ") {
            let f = line.split(separator: " ").map(String.init)
            var keys = ["value": f[2], "shelf": f[3], "keeper": f[4], "lister": f[5], "guardian": f[6]]
            let tags = f[7] == "-" ? [] : f[7].split(separator: "+").map(String.init)
            for group in groups.keys { keys["tag:" + group] = tags.contains(group) ? "1" : "0" }
            itemsThere[f[1]] = keys
        }
        for (name, group) in groups.sorted(by: { $0.key < $1.key }) {
            let there = groupsThere.contains(name)
            if group.deleted && !group.guarded && there { problems.append("group \(name) was deleted, yet is there") }
            if !group.deleted && !there { problems.append("group \(name) was never deleted, yet is gone") }
        }
        for name in groupsThere where groups[name] == nil { problems.append("group \(name) was never made") }
        for (name, item) in items.sorted(by: { $0.key < $1.key }) {
            guard let there = itemsThere[name] else {
                if !item.deleted && !atRisk(item) { problems.append("item \(name) was never deleted, yet is gone") }
                continue
            }
            if item.deleted && !uncertain(item) { problems.append("item \(name) was deleted, yet is there: \(there)") }
            for (key, value) in there.sorted(by: { $0.key < $1.key }) {
                let allowed = candidates(item, key)
                if allowed.contains(value) { continue }
                // A relationship to a group that went is cleared (one whose deletion was refused stays, and so do its links).
                func went(_ group: String) -> Bool { mayBeGone(group) && !groupsThere.contains(group) }
                let cleared =
                    key.hasPrefix("tag:")
                    ? value == "0" && went(String(key.dropFirst(4))) : value == "-" && everLinked(item, key).contains(where: went)
                if !cleared { problems.append("item \(name): \(key) is \(value), but its writes allow only \(allowed.sorted())") }
            }
        }
        for name in itemsThere.keys where items[name] == nil { problems.append("item \(name) was never made") }
        return problems
    }

    /// After a heal checked out: what is there is the base of what comes next.
    mutating func rebase(on dump: [String]) {
        let groupsThere = Set(dump.filter { $0.hasPrefix("g ") }.map { String($0.dropFirst(2)) })
        groups = groups.filter { groupsThere.contains($0.key) }.mapValues { Group(guarded: $0.guarded) }
        var next: [String: Item] = [:]
        for line in dump where line.hasPrefix("i ") {
            let f = line.split(separator: " ").map(String.init)
            var item = Item()
            item.base = ["value": f[2], "shelf": f[3], "keeper": f[4], "lister": f[5], "guardian": f[6]]
            for tag in f[7] == "-" ? [] : f[7].split(separator: "+") { item.base["tag:" + tag] = "1" }
            next[f[1]] = item
        }
        items = next
    }
}
