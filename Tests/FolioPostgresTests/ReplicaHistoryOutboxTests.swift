import FolioPostgres
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// A replica's waiting saves live in their own history rows (the `outbox`
/// column): they outlive the history's trimming, and a file that kept them
/// in a table of their own moves them there when it opens.
@MainActor
@Suite struct ReplicaHistoryOutboxTests: ReplicaSuite {
    let cluster: PostgresCluster
    let uri: String
    let dir: StoreTemporaryDirectory

    init() async throws {
        cluster = try await PostgresCluster.shared()
        uri = try await cluster.makeDatabase(prefix: "historyoutbox")
        dir = try StoreTemporaryDirectory()
    }

    /// One value the replica file holds, read as another SQLite client would.
    func local(_ name: String, _ query: String) -> String { ReplicaFileQuery.value(dir.path(name), query) }

    func animal(_ name: String, in context: ObjectContext) -> TestAnimal {
        let a = TestAnimal(context: context)
        a.commonName = name
        a.legs = 4
        return a
    }

    @Test func aWaitingSaveOutlivesTheReReadOfATrimmedHistory() async throws {
        let a = try replica("a.sqlite"), b = try replica("b.sqlite")
        let margay = animal("Margay", in: a.viewContext)
        try a.viewContext.save()
        _ = try await a.syncNow()
        _ = try await b.syncNow()
        let mine = try #require(try b.viewContext.existingObject(with: margay.objectID) as? TestAnimal)
        margay.legs = 3
        try a.viewContext.save()
        _ = try await a.syncNow()
        mine.legs = 5
        try b.viewContext.save()
        // The server trims all its history, as for a replica silent too long: B's pull reads the store again.
        try await sql(
            """
            INSERT INTO folio_metadata (key, value) SELECT 'history_trimmed_through', max(position)::text FROM folio_history
            ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value;
            DELETE FROM folio_history
            """)
        // B's save meets A's (`.error` leaves it waiting), then the re-read trims B's own history.
        let report = try await b.syncNow()
        #expect(report.unsettled.count == 1 && report.waiting == 1, "\(report)")
        #expect(local("b.sqlite", "SELECT count(*) FROM folio_history WHERE outbox IS NOT NULL") == "1")
        b.syncMergePolicy = .mergeByPropertyObjectTrump
        let settled = try await b.syncNow()
        #expect(settled.waiting == 0 && settled.unsettled.isEmpty, "\(settled)")
        #expect(try await sql("SELECT legs FROM \"TestAnimal\"") == "5")
    }

    @Test func aFileWithTheOutboxTableOfBeforeMovesItsWaitingSavesIntoTheHistoryAndPushesThem() async throws {
        do {
            let a = try replica("a.sqlite")
            let okapi = animal("Okapi", in: a.viewContext)
            try a.viewContext.save()
            _ = try await a.syncNow()
            okapi.legs = 3
            try a.viewContext.save()
            _ = animal("Tapir", in: a.viewContext)
            try a.viewContext.save()
        }
        // As the build before kept them: a table of their own, numbered past what the server records as pushed
        // (an entry numbered at or below it would be taken as pushed already).
        do {
            let file = try SQLiteConnection(path: dir.path("a.sqlite"), busyTimeoutMilliseconds: 30_000)
            try file.execute(
                """
                BEGIN IMMEDIATE;
                DROP VIEW folio_outbox;
                DROP TRIGGER folio_history_keeps_outbox;
                CREATE TABLE folio_outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, entry TEXT NOT NULL);
                INSERT INTO folio_outbox (seq, entry)
                  SELECT position + 5000, outbox FROM folio_history WHERE outbox IS NOT NULL ORDER BY position;
                ALTER TABLE folio_history DROP COLUMN outbox;
                DELETE FROM folio_metadata WHERE key = 'replica_outbox_from';
                COMMIT
                """)
        }
        #expect(local("a.sqlite", "SELECT count(*) FROM folio_outbox") == "2")
        try await sql("UPDATE folio_replicas SET pushed_through = 5000")

        let again = try replica("a.sqlite")
        #expect(local("a.sqlite", "SELECT type FROM sqlite_master WHERE name = 'folio_outbox'") == "view")
        #expect(local("a.sqlite", "SELECT min(position) > 5000 FROM folio_history WHERE outbox IS NOT NULL") == "1")
        let report = try await again.syncNow()
        #expect(report.pushed == 2 && report.waiting == 0, "\(report)")
        #expect(
            try await sql("SELECT string_agg(\"commonName\" || ':' || legs, ',' ORDER BY \"commonName\") FROM \"TestAnimal\"")
                == "Okapi:3,Tapir:4")
        // Saves after it are numbered after it.
        _ = animal("Urial", in: again.viewContext)
        try again.viewContext.save()
        #expect(try await again.syncNow().pushed == 1)
        #expect(try await sql("SELECT count(*) FROM \"TestAnimal\"") == "3")
    }

    /// An older build keeps its waiting saves in a table named `folio_outbox`
    /// and trims the history up to what its readers read: run on this file,
    /// its statements (as it spells them) must lose no waiting save.
    @Test func anOlderBuildsStatementsLoseNoWaitingSave() async throws {
        do {
            let a = try replica("a.sqlite")
            let okapi = animal("Okapi", in: a.viewContext), tapir = animal("Tapir", in: a.viewContext)
            try a.viewContext.save()
            _ = try await a.syncNow()
            okapi.legs = 3
            try a.viewContext.save()
            tapir.legs = 5
            try a.viewContext.save()
        }
        do {
            let file = try SQLiteConnection(path: dir.path("a.sqlite"), busyTimeoutMilliseconds: 30_000)
            // Its opening, then its push of the oldest entry, which it then saves again as a new one.
            try file.execute(
                """
                CREATE TABLE IF NOT EXISTS folio_outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, entry TEXT NOT NULL);
                BEGIN IMMEDIATE;
                CREATE TEMP TABLE oldest AS SELECT seq, entry FROM folio_outbox WHERE seq > 0 ORDER BY seq LIMIT 1;
                DELETE FROM folio_outbox WHERE seq >= (SELECT seq FROM oldest) AND seq <= (SELECT seq FROM oldest);
                INSERT INTO folio_outbox (entry) SELECT entry FROM oldest;
                COMMIT
                """)
            #expect(try file.rows("SELECT count(*), min(seq) < max(seq) FROM folio_outbox").first == [.integer(2), .integer(1)])
            // Its trimming: every history row its readers passed.
            try file.execute("DELETE FROM folio_history WHERE position <= (SELECT max(position) FROM folio_history)")
            #expect(try file.rows("SELECT count(*) FROM folio_outbox").first == [.integer(2)])
        }
        #expect(local("a.sqlite", "SELECT type FROM sqlite_master WHERE name = 'folio_outbox'") == "view")
        let again = try replica("a.sqlite")
        let report = try await again.syncNow()
        #expect(report.pushed == 2 && report.waiting == 0, "\(report)")
        #expect(
            try await sql("SELECT string_agg(\"commonName\" || ':' || legs, ',' ORDER BY \"commonName\") FROM \"TestAnimal\"")
                == "Okapi:3,Tapir:5")
        // Pushed, the rows go with the history's next trimming.
        #expect(local("a.sqlite", "SELECT count(*) FROM folio_history WHERE outbox IS NOT NULL") == "0")
    }
}
