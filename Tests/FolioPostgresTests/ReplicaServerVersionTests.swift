import FolioPostgres
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// A replica's rows carry the server version each was last seen at here
/// (`folio_server_version`), where a save reads it with the row: with the
/// version the row's last push left, the larger must be the row's record
/// through every path that changes the record, or a conflict goes unseen
/// (or one is seen that is not there).
@MainActor
@Suite struct ReplicaServerVersionTests: ReplicaSuite {
    let cluster: PostgresCluster
    let uri: String
    let dir: StoreTemporaryDirectory

    init() async throws {
        cluster = try await PostgresCluster.shared()
        uri = try await cluster.makeDatabase(prefix: "serverversion")
        dir = try StoreTemporaryDirectory()
    }

    /// One value the replica file holds, read as another SQLite client would.
    func local(_ name: String, _ query: String) -> String { ReplicaFileQuery.value(dir.path(name), query) }

    /// The rows of every table whose column, or else the version its last push left, is not their record's version
    /// (0 when there is none), and how many rows have one.
    func mismatches(_ name: String) -> (wrong: Int, recorded: Int) {
        var wrong = 0, recorded = 0
        for entity in StoreTestSchema.make().entities.map(\.name) {
            wrong +=
                Int(
                    local(
                        name,
                        """
                        SELECT count(*) FROM "\(entity)" e LEFT JOIN folio_replica_rows r ON r.entity = '\(entity)' AND r.id = e.id
                        WHERE max(e.folio_server_version, coalesce(r.base, 0)) <> coalesce(r.version, 0)
                        """)) ?? -1
            recorded += Int(local(name, "SELECT count(*) FROM folio_replica_rows WHERE entity = '\(entity)' AND version > 0")) ?? -1
        }
        return (wrong, recorded)
    }

    func animal(_ name: String, in context: ObjectContext) -> TestAnimal {
        let a = TestAnimal(context: context)
        a.commonName = name
        a.legs = 4
        return a
    }

    @Test func everyRowsVersionFollowsItsRecordAndConflictsAreSeenExactly() async throws {
        let a = try replica("a.sqlite")
        let okapi = animal("Okapi", in: a.viewContext), tapir = animal("Tapir", in: a.viewContext)
        let zoo = TestZoo(context: a.viewContext)
        zoo.name = "Basel"
        try a.viewContext.save()
        _ = try await a.syncNow()
        // The push's read-back recorded the versions of A's new rows.
        #expect(mismatches("a.sqlite").wrong == 0 && mismatches("a.sqlite").recorded == 3, "\(mismatches("a.sqlite"))")

        // First sync.
        let b = try replica("b.sqlite")
        #expect(mismatches("b.sqlite").wrong == 0 && mismatches("b.sqlite").recorded == 3, "\(mismatches("b.sqlite"))")

        // A pulled change: B's save of the row after it is made on the new version, so no conflict.
        okapi.legs = 3
        try a.viewContext.save()
        _ = try await a.syncNow()
        _ = try await b.syncNow()
        #expect(mismatches("b.sqlite").wrong == 0)
        let okapiB = try #require(try b.viewContext.existingObject(with: okapi.objectID) as? TestAnimal)
        okapiB.legs = 5
        try b.viewContext.save()
        let clean = try await b.syncNow()
        #expect(clean.unsettled.isEmpty && clean.waiting == 0, "\(clean)")
        #expect(mismatches("b.sqlite").wrong == 0)

        // A change B has not pulled: B's save of the row meets it, and the conflict is listed.
        let tapirB = try #require(try b.viewContext.existingObject(with: tapir.objectID) as? TestAnimal)
        _ = tapirB.legs
        tapir.legs = 2
        try a.viewContext.save()
        _ = try await a.syncNow()
        tapirB.legs = 6
        try b.viewContext.save()
        let met = try await b.syncNow()
        #expect(met.unsettled.map(\.id) == [tapir.objectID.rowID], "\(met)")
        b.syncMergePolicy = .mergeByPropertyObjectTrump
        #expect(try await b.syncNow().waiting == 0)
        #expect(mismatches("b.sqlite").wrong == 0)

        // A deletion pulled, and a re-read after the server trimmed its history.
        a.viewContext.delete(okapi)
        try a.viewContext.save()
        _ = try await a.syncNow()
        _ = animal("Urial", in: a.viewContext)
        try a.viewContext.save()
        _ = try await a.syncNow()
        try await sql(
            """
            INSERT INTO folio_metadata (key, value) SELECT 'history_trimmed_through', max(position)::text FROM folio_history
            ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value;
            DELETE FROM folio_history
            """)
        _ = try await b.syncNow()
        #expect(local("b.sqlite", "SELECT count(*) FROM \"TestAnimal\"") == "2")
        #expect(mismatches("b.sqlite").wrong == 0 && mismatches("b.sqlite").recorded == 3, "\(mismatches("b.sqlite"))")
    }

    @Test func aFileWithoutTheColumnTakesItFromItsRecordsWhenItOpens() async throws {
        let a = try replica("a.sqlite")
        let okapi = animal("Okapi", in: a.viewContext)
        try a.viewContext.save()
        okapi.legs = 3
        try a.viewContext.save()
        _ = try await a.syncNow()
        do {
            _ = try replica("b.sqlite")
        }
        // As the build before made it: no column, no triggers.
        do {
            let file = try SQLiteConnection(path: dir.path("b.sqlite"), busyTimeoutMilliseconds: 30_000)
            try file.execute("BEGIN IMMEDIATE")
            for row in try file.rows("SELECT name FROM sqlite_master WHERE type = 'trigger'") {
                if case .text(let name) = row[0] { try file.execute("DROP TRIGGER \"\(name)\"") }
            }
            for entity in StoreTestSchema.make().entities.map(\.name) {
                try file.execute("ALTER TABLE \"\(entity)\" DROP COLUMN folio_server_version")
            }
            try file.execute("COMMIT")
        }
        #expect(local("b.sqlite", "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'") == "0")
        let b = try replica("b.sqlite")
        #expect(local("b.sqlite", "SELECT folio_server_version FROM \"TestAnimal\"") == "2")
        #expect(mismatches("b.sqlite").wrong == 0 && mismatches("b.sqlite").recorded == 1)
        // B's save is made on version 2: pushed without a conflict.
        let okapiB = try #require(try b.viewContext.existingObject(with: okapi.objectID) as? TestAnimal)
        okapiB.legs = 7
        try b.viewContext.save()
        let report = try await b.syncNow()
        #expect(report.unsettled.isEmpty && report.waiting == 0, "\(report)")
        #expect(try await sql("SELECT legs FROM \"TestAnimal\"") == "7")
        // The push's read-back recorded what it left beside the row's own column, which a later pull moves on.
        #expect(local("b.sqlite", "SELECT version || ':' || base FROM folio_replica_rows") == "3:3")
        #expect(mismatches("b.sqlite").wrong == 0)
        _ = try await a.syncNow()
        #expect(await waitUntil { okapi.legs == 7 })
        okapi.legs = 1
        try a.viewContext.save()
        _ = try await a.syncNow()
        _ = try await b.syncNow()
        #expect(local("b.sqlite", "SELECT folio_server_version FROM \"TestAnimal\"") == "4")
        #expect(mismatches("b.sqlite").wrong == 0)
    }
}
