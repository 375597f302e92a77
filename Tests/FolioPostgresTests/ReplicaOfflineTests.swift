import FolioPostgres
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// A replica without its server: saves are local and durable, and wait in
/// the outbox until the server is back. Each test stops a server of its own.
@MainActor
@Suite struct ReplicaOfflineTests {
    let worker = StoreChildProcess.sibling("folio-store-worker")

    func animal(_ name: String, in context: ObjectContext) -> TestAnimal {
        let a = TestAnimal(context: context)
        a.commonName = name
        return a
    }

    func outbox(_ path: String) -> [String] {
        ReplicaFileQuery.rows(path, "SELECT outbox FROM folio_history WHERE outbox IS NOT NULL ORDER BY position")?.map { $0[0] }
            ?? ["cannot read"]
    }

    @Test func savesWhileTheServerIsStoppedWaitAndArePushedWhenItIsBack() async throws {
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let uri = try await cluster.makeDatabase()
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("r.sqlite")
        let container = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri, replica: path))
        let kept = animal("Aye-aye", in: container.viewContext)
        try container.viewContext.save()
        _ = try await container.syncNow()

        try await cluster.stop()
        kept.legs = 2
        let gone = animal("Binturong", in: container.viewContext)
        try container.viewContext.save()
        container.viewContext.delete(gone)
        _ = animal("Colugo", in: container.viewContext)
        try container.viewContext.save()
        let entries = outbox(path)
        #expect(entries.count == 2, "\(entries)")
        #expect(
            entries.first?.contains("\"keys\":[\"legs\"]") == true && entries.first?.contains("\"old\":[{\"i\":4}]") == true,
            "\(entries)")
        await #expect(throws: (any Error).self) { _ = try await container.syncNow() }
        #expect(container.syncStatus?.isOnline == false && container.syncStatus?.waitingChanges == 2)
        #expect(
            try container.viewContext.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)])).map(\.commonName)
                == ["Aye-aye", "Colugo"])

        try await cluster.start()
        #expect(
            await waitUntil(60) {
                _ = try? await container.syncNow()
                return container.syncStatus?.waitingChanges == 0
            }, "\(String(describing: container.syncStatus?.state))")
        let rows = try await cluster.runSQL(
            "SELECT string_agg(\"commonName\" || ':' || legs, ',' ORDER BY id) FROM \"TestAnimal\"",
            database: PostgresCluster.databaseName(uri))
        #expect(rows.trimmingCharacters(in: .whitespacesAndNewlines) == "Aye-aye:2,Colugo:4")
        #expect(container.syncStatus?.isOnline == true)
    }

    /// Nobody calls syncNow here: the background sync notices the server
    /// going and coming back, and the status says so.
    @Test func theStatusShowsTheReplicaOfflineWithItsWaitingSavesThenSyncedByItself() async throws {
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let uri = try await cluster.makeDatabase()
        let dir = try StoreTemporaryDirectory()
        let container = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri, replica: dir.path("r.sqlite")))
        let status = try #require(container.syncStatus)
        #expect(await waitUntil(60) { status.lastSynced != nil && status.isOnline })
        try await cluster.stop()
        for name in ["Fennec", "Gerenuk", "Hoatzin"] {
            _ = animal(name, in: container.viewContext)
            try container.viewContext.save()
        }
        #expect(await waitUntil(60) { !status.isOnline && status.waitingChanges == 3 }, "\(status.state)")
        try await cluster.start()
        #expect(await waitUntil(120) { status.isOnline && status.waitingChanges == 0 }, "\(status.state)")
        let rows = try await cluster.runSQL("SELECT count(*) FROM \"TestAnimal\"", database: PostgresCluster.databaseName(uri))
        #expect(rows.trimmingCharacters(in: .whitespacesAndNewlines) == "3")
    }

    @Test func aNewReplicaNeedsItsServerAndSaysSo() async throws {
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let uri = try await cluster.makeDatabase()
        let dir = try StoreTemporaryDirectory()
        try await cluster.stop()
        #expect {
            _ = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri, replica: dir.path("r.sqlite")))
        } throws: { error in
            guard case StoreError.offline = error else { return false }
            return true
        }
        try await cluster.start()
        let container = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri, replica: dir.path("r.sqlite")))
        #expect(container.syncStatus != nil)
    }

    @Test func aProcessKilledRightAfterALocalSaveLosesNothing() async throws {
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let uri = try await cluster.makeDatabase()
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("r.sqlite")
        // Made and closed here, so the child opens an existing replica.
        do { _ = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri, replica: path)) }
        try await cluster.stop()
        let child = try StoreChildProcess(executable: worker, arguments: ["insert", uri + "#replica=" + path, "Dhole", "Ermine"])
        // Killed as soon as its second save is acknowledged.
        #expect(
            await waitUntil(120) { child.lines.filter { $0.line.hasPrefix("saved TestAnimal/") }.count == 2 }, "\(child.lines.map(\.line))")
        await child.kill()
        try await cluster.start()
        let container = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri, replica: path))
        #expect(
            try container.viewContext.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)])).map(\.commonName)
                == ["Dhole", "Ermine"])
        #expect(
            await waitUntil(60) {
                _ = try? await container.syncNow()
                return container.syncStatus?.waitingChanges == 0
            })
        let rows = try await cluster.runSQL(
            "SELECT string_agg(\"commonName\", ',' ORDER BY id) FROM \"TestAnimal\"",
            database: PostgresCluster.databaseName(uri))
        #expect(rows.trimmingCharacters(in: .whitespacesAndNewlines) == "Dhole,Ermine")
    }

    @Test func twoReplicasInsertingOfflineNeverClash() async throws {
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let uri = try await cluster.makeDatabase()
        let dir = try StoreTemporaryDirectory()
        let a = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri, replica: dir.path("a.sqlite")))
        let b = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri, replica: dir.path("b.sqlite")))
        try await cluster.stop()
        let mine = (0..<20).map { animal("A\($0)", in: a.viewContext) }
        let theirs = (0..<20).map { animal("B\($0)", in: b.viewContext) }
        try a.viewContext.save()
        try b.viewContext.save()
        #expect(Set(mine.map(\.objectID.rowID)).isDisjoint(with: theirs.map(\.objectID.rowID)))
        try await cluster.start()
        for container in [a, b, a] {
            #expect(
                await waitUntil(60) {
                    (try? await container.syncNow()) != nil && container.syncStatus?.waitingChanges == 0
                })
        }
        #expect(try a.viewContext.count(for: FetchRequest<TestAnimal>()) == 40)
        #expect(
            await waitUntil(30) {
                _ = try? await b.syncNow()
                return (try? b.viewContext.count(for: FetchRequest<TestAnimal>())) == 40
            })
    }
}
