import CSQLite
import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioPostgres

/// An outbox entry keeps, for each row a save updates, the values of the
/// keys it changed as the row held them and the server version last seen
/// here: the merge policies and the push's version check decide by them.
/// Each save's entry is compared with the row as read beside the store just
/// before the save, across entities, sets of keys, and a row a pull changed
/// after the object was fetched.
@MainActor
@Suite struct ReplicaEntryBeforeTests {
    let cluster: PostgresCluster
    let uri: String
    let dir: StoreTemporaryDirectory

    init() async throws {
        cluster = try await PostgresCluster.shared()
        uri = try await cluster.makeDatabase(prefix: "entrybefore")
        dir = try StoreTemporaryDirectory()
    }

    /// One row's values of `columns`, its server version last seen and the one its last push left (`base`), read as
    /// another SQLite client would.
    func stored(_ entity: String, _ id: Int64, _ columns: [String]) throws -> (values: [StoreValue], seen: Int64, base: Int64) {
        var db: OpaquePointer?
        guard sqlite3_open_v2(dir.path("a.sqlite"), &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { throw CocoaError(.fileReadUnknown) }
        defer { sqlite3_close(db) }
        func read(_ sql: String, _ bind: (OpaquePointer?) -> Void) -> [StoreValue] {
            var s: OpaquePointer?
            guard sqlite3_prepare_v2(db, sql, -1, &s, nil) == SQLITE_OK else { return [] }
            defer { sqlite3_finalize(s) }
            bind(s)
            guard sqlite3_step(s) == SQLITE_ROW else { return [] }
            return (0..<sqlite3_column_count(s)).map { c in
                switch sqlite3_column_type(s, c) {
                case SQLITE_INTEGER: .integer(sqlite3_column_int64(s, c))
                case SQLITE_FLOAT: .real(sqlite3_column_double(s, c))
                case SQLITE_TEXT: .text(String(cString: sqlite3_column_text(s, c)))
                default: .null
                }
            }
        }
        let values =
            columns.isEmpty
            ? []
            : read("SELECT \(columns.map { "\"\($0)\"" }.joined(separator: ", ")) FROM \"\(entity)\" WHERE id = ?") {
                sqlite3_bind_int64($0, 1, id)
            }
        let seen = read("SELECT version, base FROM folio_replica_rows WHERE entity = ? AND id = ?") {
            sqlite3_bind_text($0, 1, entity, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            sqlite3_bind_int64($0, 2, id)
        }
        guard case .integer(let version)? = seen.first, case .integer(let base) = seen[1] else { return (values, 0, 0) }
        return (values, version, base)
    }

    func lastEntry() throws -> OutboxEntry {
        let file = try ReplicaFile.open(dir.path("a.sqlite"), busyTimeoutMilliseconds: 5000)
        return try #require(try file.outbox().last?.entry)
    }

    /// Saves `change` and checks its entry's one update against the row as it was just before.
    func expectEntry(
        of object: ManagedObject, keys: [String], in context: ObjectContext, _ change: () -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let entity = object.objectID.entityName, id = object.objectID.rowID
        let before = try stored(entity, id, keys)
        change()
        try context.save()
        let update = try #require(try lastEntry().updates.first, sourceLocation: sourceLocation)
        #expect(update.entity == entity && update.id == id, sourceLocation: sourceLocation)
        #expect(update.keys.sorted() == keys.sorted(), sourceLocation: sourceLocation)
        let old = Dictionary(uniqueKeysWithValues: zip(update.keys, update.old.map(\.value)))
        #expect(keys.map { old[$0] } == before.values.map(Optional.some), "\(entity) \(id) \(keys)", sourceLocation: sourceLocation)
        // The version its push checks: the larger of what the entry saw and what the row's last push left.
        #expect(max(update.seen ?? -1, before.base) == before.seen, "\(entity) \(id) \(keys)", sourceLocation: sourceLocation)
    }

    @Test func eachUpdateKeepsTheRowsValuesAndVersionAsTheyWereBeforeItsSave() async throws {
        let server = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        for (name, legs) in [("Okapi", 4), ("Tapir", 4)] {
            let a = TestAnimal(context: server.viewContext)
            a.commonName = name
            a.legs = legs
            a.habitat = "forest"
        }
        let zoo = TestZoo(context: server.viewContext)
        zoo.name = "North"
        zoo.location = "hill"
        try server.viewContext.save()

        let replica = try PersistentContainer(
            schema: StoreTestSchema.make(), store: .postgreSQL(uri, replica: dir.path("a.sqlite")), syncsAutomatically: false)
        let context = replica.viewContext
        context.mergePolicy = .mergeByPropertyObjectTrump
        let animals = try context.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)]))
        let (okapi, tapir) = (animals[0], animals[1])
        let north = try #require(try context.fetch(FetchRequest<TestZoo>()).first)

        // Another set of keys of the same entity, another entity, two keys at once, one key again.
        try expectEntry(of: okapi, keys: ["legs"], in: context) { okapi.legs = 5 }
        try expectEntry(of: okapi, keys: ["habitat"], in: context) { okapi.habitat = "swamp" }
        try expectEntry(of: north, keys: ["location"], in: context) { north.location = "valley" }
        try expectEntry(of: okapi, keys: ["habitat", "legs"], in: context) {
            okapi.legs = 6
            okapi.habitat = "plain"
        }
        try expectEntry(of: tapir, keys: ["legs"], in: context) { tapir.legs = 3 }

        // The server changes Tapir after it was fetched here; the pull writes it
        // (a newer server version), then Tapir is saved here again.
        _ = try await replica.syncNow()
        let onServer = try #require(try server.viewContext.fetch(FetchRequest<TestAnimal>()).first { $0.commonName == "Tapir" })
        onServer.habitat = "river"
        onServer.legs = 8
        try server.viewContext.save()
        let seenBefore = try stored("TestAnimal", tapir.objectID.rowID, []).seen
        _ = try await replica.syncNow()
        #expect(try stored("TestAnimal", tapir.objectID.rowID, ["habitat"]).values == [.text("river")])
        #expect(try stored("TestAnimal", tapir.objectID.rowID, []).seen > seenBefore)
        try expectEntry(of: tapir, keys: ["habitat"], in: context) { tapir.habitat = "lake" }
        try expectEntry(of: tapir, keys: ["legs"], in: context) { tapir.legs = 2 }
    }
}
