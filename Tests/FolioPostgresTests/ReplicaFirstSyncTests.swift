import CSQLite
import Dispatch
import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioPostgres

/// A first sync cut off by SIGKILL goes on from where it stopped, at the
/// position it started from; it leaves no replica number or history reader
/// behind on the server.
@MainActor
@Suite struct ReplicaFirstSyncTests {
    let worker = StoreChildProcess.sibling("folio-store-worker")
    let cluster: PostgresCluster
    let uri: String
    let dir: StoreTemporaryDirectory
    let animals = 25_000
    var database: String { PostgresCluster.databaseName(uri) }

    init() async throws {
        cluster = try await PostgresCluster.shared()
        uri = try await cluster.makeDatabase(prefix: "firstsync")
        dir = try StoreTemporaryDirectory()
    }

    @discardableResult
    func sql(_ text: String) async throws -> String {
        try await cluster.runSQL(text, database: database).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A server store with more animals than two chunks hold, and three items (a table copied after the animals).
    func serverStore() throws -> PersistentContainer {
        let online = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let rows: [[String: Any]] = (0..<animals).map { ["commonName": String(format: "A%05d", $0), "legs": $0 % 5] }
        _ = try online.viewContext.execute(BatchInsertRequest<TestAnimal>(objects: rows))
        for i in 0..<3 {
            let item = TestItem(context: online.viewContext)
            item.text = "item \(i)"
        }
        try online.viewContext.save()
        return online
    }

    /// A first sync in a worker process, killed (SIGKILL) once it has
    /// committed a chunk of animals. The items' table is locked on the
    /// server before the worker starts (opening a store this build prepared
    /// takes no lock), so the copy cannot get past the items before the
    /// kill, however long the test takes to stop it; the worker is still
    /// stopped (SIGSTOP) as its copy begins, and goes on once seen.
    func killFirstSyncMidway(_ path: String) async throws {
        let holder = try PGConnection(uri: uri)
        try holder.execute("BEGIN")
        try holder.execute("SET LOCAL lock_timeout = 10000")
        try holder.execute("LOCK TABLE \"TestItem\" IN ACCESS EXCLUSIVE MODE")
        let child = try StoreChildProcess(executable: worker, arguments: ["watch", uri + "#replica=" + path])
        let pid = child.processIdentifier
        // A poll on a thread of its own: a pool thread held for it could starve the tests beside this one.
        let begun = try await BlockingWork.run {
            let deadline = Date().addingTimeInterval(120)
            while Self.metadata(path, "replica_copy_attempts") == nil && Date() < deadline { usleep(500) }
            return kill(pid, SIGSTOP) == 0 && Self.metadata(path, "replica_copy_attempts") != nil
        }
        #expect(begun, "the copy never began: \(child.lines.map(\.line))")
        child.resume()
        // Killed mid-table or held at the items, both midway.
        let midway = await waitUntil(120) { Int(Self.metadata(path, "replica_copy_rows") ?? "") ?? 0 >= ReplicaFirstSync.chunkRows }
        let state = "\(child.state.map(String.init) ?? "?") table \(Self.metadata(path, "replica_copy_table") ?? "-")"
        await child.kill()
        try holder.execute("ROLLBACK")
        #expect(midway, "the copy never committed a chunk of animals: \(state) \(child.lines.map(\.line))")
    }

    nonisolated static func metadata(_ path: String, _ key: String) -> String? {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return nil }
        defer { sqlite3_close(db) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "SELECT value FROM folio_metadata WHERE key = ?", -1, &statement, nil) == SQLITE_OK else { return nil }
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_text(statement, 1, key, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) else { return nil }
        return String(cString: text)
    }

    func names(_ container: PersistentContainer) throws -> [String] {
        try container.viewContext.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)])).map {
            "\($0.commonName):\($0.legs)"
        }
    }

    @Test func aKilledFirstSyncGoesOnFromWhereItStoppedAndEndsAtOnePosition() async throws {
        let online = try serverStore()
        let path = dir.path("r.sqlite")
        try await killFirstSyncMidway(path)
        let copiedBefore = Int(Self.metadata(path, "replica_copy_rows") ?? "") ?? 0
        #expect(copiedBefore >= ReplicaFirstSync.chunkRows && copiedBefore <= animals, "\(copiedBefore)")
        #expect(Self.metadata(path, "replica_copy_attempts") == "1")
        #expect(try await sql("SELECT count(*) || ':' || bool_or(ready) FROM folio_replicas") == "1:false")
        // Two minutes go by, and a plain container (a minute's limit) acknowledges: the first sync's reader keeps its
        // own limit, and with it the history the next attempt needs.
        try await sql("UPDATE folio_readers SET seen = seen - 120 WHERE reader LIKE 'replica-%'")
        let plain = try PGConnection(uri: uri)
        try PostgresHistory.acknowledge(plain, reader: "plain", position: 0, silenceLimit: 60)
        #expect(try await sql("SELECT count(*) FROM folio_readers WHERE reader LIKE 'replica-%'") == "1")

        // Meanwhile on the server: rows the copy has are changed and deleted, a row comes into a table it finished.
        let stored = try online.viewContext.fetch(
            FetchRequest<TestAnimal>(predicate: #Predicate { $0.commonName == "A00005" || $0.commonName == "A00010" }))
        #expect(stored.count == 2)
        for animal in stored {
            if animal.commonName == "A00005" { animal.legs = 9 } else { online.viewContext.delete(animal) }
        }
        let zoo = TestZoo(context: online.viewContext)
        zoo.name = "Late Zoo"
        TestItem(context: online.viewContext).text = "item 3"
        try online.viewContext.save()

        let replica = try PersistentContainer(
            schema: StoreTestSchema.make(), store: .postgreSQL(uri, replica: path), syncsAutomatically: false)
        #expect(Self.metadata(path, "replica_copy_attempts") == "2")
        // The animals were copied once: the second attempt copied only the items (4 by then).
        #expect(Self.metadata(path, "replica_copy_rows") == String(animals + 4))
        #expect(Self.metadata(path, "replica_copy_after") == nil)
        let here = try names(replica)
        #expect(here == (try names(online)))
        #expect(here.count == animals - 1 && here.contains("A00005:9") && !here.contains { $0.hasPrefix("A00010:") })
        #expect(try replica.viewContext.fetch(FetchRequest<TestZoo>()).map(\.name) == ["Late Zoo"])
        #expect(try replica.viewContext.count(for: FetchRequest<TestItem>()) == 4)
        // One number and one reader on the server, whatever the attempts.
        #expect(try await sql("SELECT count(*) || ':' || bool_and(ready) FROM folio_replicas") == "1:true")
        #expect(try await sql("SELECT count(*) FROM folio_readers WHERE reader LIKE 'replica-%'") == "1")

        // It is a replica like any other: a save here reaches the server.
        TestZoo(context: replica.viewContext).name = "Replica Zoo"
        try replica.viewContext.save()
        #expect(try await replica.syncNow().pushed == 1)
        #expect(try await sql("SELECT string_agg(name, ',' ORDER BY name) FROM \"TestZoo\"") == "Late Zoo,Replica Zoo")
    }

    @Test func aKilledFirstSyncWhoseHistoryTheServerTrimmedStartsOverCleanly() async throws {
        let online = try serverStore()
        let path = dir.path("r.sqlite")
        try await killFirstSyncMidway(path)
        let copiedBefore = Int(Self.metadata(path, "replica_copy_rows") ?? "") ?? 0
        // A save after the copy's position, then the history through it trimmed, as silent readers let the server do.
        let first = try online.viewContext.fetch(FetchRequest<TestAnimal>(predicate: #Predicate { $0.commonName == "A00001" }))
        first.first?.legs = 7
        try online.viewContext.save()
        try await sql(
            """
            INSERT INTO folio_metadata (key, value) SELECT 'history_trimmed_through', max(position)::text FROM folio_history
            ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value;
            DELETE FROM folio_history WHERE position <= (SELECT value::bigint FROM folio_metadata WHERE key = 'history_trimmed_through')
            """)

        let replica = try PersistentContainer(
            schema: StoreTestSchema.make(), store: .postgreSQL(uri, replica: path), syncsAutomatically: false)
        #expect(Self.metadata(path, "replica_copy_attempts") == "2")
        #expect(Self.metadata(path, "replica_copy_rows") == String(copiedBefore + animals + 3))
        #expect(try names(replica) == (try names(online)))
        #expect(try names(replica).contains("A00001:7"))
        #expect(try await sql("SELECT count(*) || ':' || bool_and(ready) FROM folio_replicas") == "1:true")
        #expect(try await sql("SELECT count(*) FROM folio_readers WHERE reader LIKE 'replica-%'") == "1")
    }

    @Test func anAbandonedFirstSyncLetsGoOfItsNumberOnceItsReaderFellSilent() async throws {
        _ = try serverStore()
        try await killFirstSyncMidway(dir.path("gone.sqlite"))
        try FileManager.default.removeItem(atPath: dir.path("gone.sqlite"))
        // Its reader dropped, as any reader silent past the limit is by the next acknowledgement.
        try await sql("DELETE FROM folio_readers WHERE reader LIKE 'replica-%'")

        let replica = try PersistentContainer(
            schema: StoreTestSchema.make(), store: .postgreSQL(uri, replica: dir.path("new.sqlite")), syncsAutomatically: false)
        #expect(try replica.viewContext.count(for: FetchRequest<TestAnimal>()) == animals)
        #expect(try await sql("SELECT count(*) || ':' || bool_and(ready) FROM folio_replicas") == "1:true")
        #expect(try await sql("SELECT count(*) FROM folio_readers WHERE reader LIKE 'replica-%'") == "1")
    }
}
