/// One object's to-many relationship as its context knows it: the members
/// (row IDs of the target entity) in order, a doubly linked list threaded
/// through a dictionary, so that membership, appending, removing and putting
/// a member back where it was are O(1) whatever the size; and the changes
/// since the last save, so that saving and change tracking cost what changed,
/// not the size of the list.
///
/// A list that is not loaded records only changes (members added since the
/// save, stored members removed); loading adds the stored members in front of
/// the added ones. Ordered relationships are loaded before they change, so
/// their order is always exact.
///
///     let list = MemberList(loaded: true, ordered: false)
///     list.append(7); list.append(9)
///     list.remove(7)   // returns the member before it (none here)
///     list.ids         // [9]
final class MemberList {
    /// No member (the end of the list); row IDs never take this value.
    static let none = Int64.min

    private struct Link {
        var previous: Int64
        var next: Int64
    }

    let isOrdered: Bool
    private(set) var isLoaded: Bool
    private var links: [Int64: Link] = [:]
    private var first = MemberList.none
    private var last = MemberList.none
    /// Members added since the last save (not stored members).
    private(set) var added: Set<Int64> = []
    /// Stored members removed since the last save.
    private(set) var removed: Set<Int64> = []
    /// For an ordered list: the order as of the last save, kept from its first change.
    private var committedOrder: [Int64]?
    private var cached: [ObjectID]?

    init(loaded: Bool, ordered: Bool) {
        isLoaded = loaded
        isOrdered = ordered
    }

    /// The number of members (of a loaded list).
    var count: Int { links.count }

    /// Whether `id` is a member; for a list not loaded, whether it was added.
    func contains(_ id: Int64) -> Bool { links[id] != nil }

    /// The members in order (of a loaded list).
    ///
    /// - Complexity: O(n).
    var ids: [Int64] {
        var result: [Int64] = []
        result.reserveCapacity(links.count)
        var at = first
        while at != Self.none {
            result.append(at)
            at = links[at]!.next
        }
        return result
    }

    /// The members as object IDs of `entity`, kept until the list changes.
    ///
    /// - Complexity: O(n) after a change, then O(1).
    func objectIDs(of entity: String) -> [ObjectID] {
        if let cached { return cached }
        let made = ids.map { ObjectID(entityName: entity, rowID: $0) }
        cached = made
        return made
    }

    /// Whether the members differ from the stored ones (or their order does).
    ///
    /// - Complexity: O(1), or O(n) for an ordered list whose order was changed.
    var hasChanges: Bool {
        if !added.isEmpty || !removed.isEmpty { return true }
        guard let committedOrder else { return false }
        return ids != committedOrder
    }

    /// Adds a member that was not one, at the end; false if it already was.
    @discardableResult
    func append(_ id: Int64) -> Bool { insert(id, after: last) }

    /// Adds a member that was not one, after `previous` (`none`: first);
    /// false if it already was one.
    @discardableResult
    func insert(_ id: Int64, after previous: Int64) -> Bool {
        guard links[id] == nil else { return false }
        keepCommittedOrder()
        if removed.remove(id) != nil {
            if !isLoaded { return true }  // a stored member again, in its stored place
        } else {
            added.insert(id)
        }
        let previous = previous != Self.none && links[previous] == nil ? last : previous
        let next = previous == Self.none ? first : links[previous]!.next
        links[id] = Link(previous: previous, next: next)
        if previous == Self.none { first = id } else { links[previous]!.next = id }
        if next == Self.none { last = id } else { links[next]!.previous = id }
        cached = nil
        return true
    }

    /// Removes a member and returns the one before it (`none` if it was first
    /// or is a stored member of a list not loaded), where
    /// ``insert(_:after:)`` puts it back; nil if it was not a member.
    @discardableResult
    func remove(_ id: Int64) -> Int64? {
        if isLoaded && links[id] == nil { return nil }
        if !isLoaded && removed.contains(id) { return nil }
        keepCommittedOrder()
        if added.remove(id) == nil { removed.insert(id) }
        return unlink(id)
    }

    /// Makes `ids` the members, in that order (a repeated ID counts once), of a loaded list.
    func replaceAll(with ids: [Int64]) {
        keepCommittedOrder()
        var wanted = Set<Int64>()
        var order: [Int64] = []
        for id in ids where wanted.insert(id).inserted { order.append(id) }
        for id in links.keys where !wanted.contains(id) {
            if added.remove(id) == nil { removed.insert(id) }
        }
        for id in order where links[id] == nil {
            if removed.remove(id) == nil { added.insert(id) }
        }
        links = [:]
        first = Self.none
        last = Self.none
        cached = nil
        for id in order { link(id) }
    }

    /// Loads the stored members in front of those added since the save,
    /// leaving out the ones removed since. Another context's save may have
    /// stored a member added here, or taken away one removed here: neither
    /// is a change any more (a stored member counted as added would be
    /// dropped by a later removal without its removal being saved, and one
    /// counted as removed would be taken for stored when added back).
    func load(stored: [Int64]) {
        guard !isLoaded else { return }
        let pending = ids
        links = [:]
        first = Self.none
        last = Self.none
        for id in stored where !removed.contains(id) && !added.contains(id) { link(id) }
        for id in pending { link(id) }
        let storedNow = Set(stored)
        added.subtract(storedNow)
        removed.formIntersection(storedNow)
        isLoaded = true
        cached = nil
    }

    /// After a save: the members are what is stored now. Temporary row IDs
    /// become the permanent ones in `permanent`.
    func didSave(_ permanent: [Int64: Int64]) {
        if !permanent.isEmpty {
            for id in added where id < 0 {
                if let new = permanent[id] { rename(id, to: new) }
            }
        }
        added = []
        removed = []
        committedOrder = nil
    }

    /// Keeps only the changes (of an unordered list), so the stored members
    /// are read again: another context may have changed them.
    func unloadKeepingChanges() {
        guard isLoaded else { return }
        let pending = ids.filter { added.contains($0) }
        links = [:]
        first = Self.none
        last = Self.none
        for id in pending { link(id) }
        isLoaded = false
        committedOrder = nil
        cached = nil
    }

    /// Drops a member another context deleted, changing nothing that is unsaved here.
    func forget(_ id: Int64) {
        added.remove(id)
        removed.remove(id)
        committedOrder?.removeAll { $0 == id }
        if links[id] != nil { _ = unlink(id) }
    }

    /// Checks that the links form one chain through every member, in both directions.
    func checkInvariants(_ label: @autoclosure () -> String) {
        var seen = 0
        var at = first, before = Self.none
        while at != Self.none {
            guard let l = links[at] else { preconditionFailure("\(label()): the chain reaches \(at), which is not linked") }
            precondition(l.previous == before, "\(label()): \(at) links back to \(l.previous), not \(before)")
            seen += 1
            before = at
            at = l.next
        }
        precondition(before == last && seen == links.count, "\(label()): \(seen) of \(links.count) members are in the chain")
        precondition(added.isDisjoint(with: removed), "\(label()): a member is both added and removed")
    }

    /// Before an ordered list first changes after a save, its order as stored.
    private func keepCommittedOrder() {
        if isOrdered && isLoaded && committedOrder == nil { committedOrder = ids }
    }

    /// Links `id` at the end without recording a change.
    private func link(_ id: Int64) {
        links[id] = Link(previous: last, next: Self.none)
        if last == Self.none { first = id } else { links[last]!.next = id }
        last = id
        cached = nil
    }

    private func unlink(_ id: Int64) -> Int64 {
        guard let l = links.removeValue(forKey: id) else { return Self.none }
        if l.previous == Self.none { first = l.next } else { links[l.previous]!.next = l.next }
        if l.next == Self.none { last = l.previous } else { links[l.next]!.previous = l.previous }
        cached = nil
        return l.previous
    }

    private func rename(_ id: Int64, to new: Int64) {
        guard let l = links.removeValue(forKey: id) else { return }
        links[new] = l
        if l.previous == Self.none { first = new } else { links[l.previous]!.next = new }
        if l.next == Self.none { last = new } else { links[l.next]!.previous = new }
        cached = nil
    }
}
