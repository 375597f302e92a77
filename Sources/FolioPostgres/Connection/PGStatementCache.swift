/// Which statements a session has prepared, by their SQL and parameter
/// types (a statement's parameter types are fixed when it is prepared).
/// A statement is prepared on its second use; the cache holds at most
/// ``limit`` statements and starts afresh (`DEALLOCATE ALL`) when full, so
/// statements made for one use only (an `IN` list of a given length) cannot grow it without bound.
/// A statement marked ``plannedEachTime`` is never prepared: a prepared
/// statement comes to use a generic plan, made once from the table's size
/// then, and for a statement whose best plan depends on that size (a read
/// by a list of IDs, the history's trim) a plan made while a table was
/// small scans all of it on every run once it has grown, until the server
/// next analyzes the table.
///
///     var cache = PGStatementCache()
///     cache.lookUp(sql, types)   // .firstUse, then .prepare("folio_1", evictAll: false)
struct PGStatementCache {
    struct Key: Hashable {
        let sql: String
        let types: [UInt32]
    }

    enum Use: Equatable {
        case firstUse
        case prepare(name: String, evictAll: Bool)
        case prepared(name: String)
    }

    static let limit = 256
    /// A comment in a statement's SQL that keeps it from being prepared.
    static let plannedEachTime = "/* planned each time */"
    /// Goes up each time the cache starts afresh: a name from an earlier
    /// generation no longer exists on the session.
    private(set) var generation = 0
    private var names: [Key: String] = [:]
    private var seenOnce: Set<Key> = []
    private var counter = 0

    mutating func lookUp(_ sql: String, _ types: [UInt32]) -> Use {
        let key = Key(sql: sql, types: types)
        if let name = names[key] { return .prepared(name: name) }
        if sql.contains(Self.plannedEachTime) { return .firstUse }
        if seenOnce.count >= Self.limit * 4 { seenOnce.removeAll() }
        guard seenOnce.remove(key) != nil else {
            seenOnce.insert(key)
            return .firstUse
        }
        counter += 1
        let evictAll = names.count >= Self.limit
        if evictAll {
            names.removeAll()
            generation += 1
        }
        return .prepare(name: "folio_\(counter)", evictAll: evictAll)
    }

    mutating func didPrepare(_ sql: String, _ types: [UInt32], _ name: String) {
        names[Key(sql: sql, types: types)] = name
    }
}
