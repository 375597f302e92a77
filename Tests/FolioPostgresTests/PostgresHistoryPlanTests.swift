import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioPostgres

/// A feed's statements on the history read its position index, never the
/// whole table: a paused client keeps rows it has not read, so the history
/// can hold millions, and a read that scans them all costs every listening
/// process that much on each wake. The server logs the plan of every
/// statement (`auto_explain`) while containers save and hear each other
/// over a long history; none scans `folio_history`. A cluster of its own:
/// its log holds only this test's plans.
@MainActor
@Suite struct PostgresHistoryPlanTests {
    static let historyRows = 30_000

    @Test func historyStatementsReadTheIndexNotTheTable() async throws {
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let uri = try await cluster.makeDatabase(prefix: "plans")
        let raw = try PGConnection(uri: uri)
        guard case .text(let database)? = try raw.scalar("SELECT current_database()") else {
            Issue.record("no database name")
            return
        }
        // Every session opened from now on logs the plan of each statement it runs.
        try raw.execute(
            """
            ALTER DATABASE \(database) SET session_preload_libraries = 'auto_explain';
            ALTER DATABASE \(database) SET auto_explain.log_min_duration = 0
            """)
        do { _ = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri)) }

        // A long history below the newest transaction IDs, held by a paused reader, its statistics read.
        try raw.execute(
            "DO $$ BEGIN FOR i IN 1..\(Self.historyRows) LOOP PERFORM pg_current_xact_id(); COMMIT; END LOOP; END $$")
        try raw.execute(
            """
            INSERT INTO folio_history (position, author, changes) SELECT g, 'earlier', '' FROM generate_series(1, \(Self.historyRows)) g;
            INSERT INTO folio_readers (reader, position, seen, silence) VALUES ('paused', 0, extract(epoch FROM now()), 1e9);
            ANALYZE folio_history
            """)
        let log = cluster.directory + "/log"
        let logStart = try #require(FileManager.default.attributesOfItem(atPath: log)[.size] as? Int)

        // Two containers: one saves, the other hears each save (its feed reads, registers, acknowledges).
        let a = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let b = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        var heard: Set<ObjectID> = []
        let token = b.viewContext.observeChanges { changes in
            if changes.origin == .otherProcess { heard.formUnion(changes.inserted) }
        }
        var saved: Set<ObjectID> = []
        for round in 0..<5 {
            let zoo = TestZoo(context: a.viewContext)
            zoo.name = "zoo \(round)"
            try a.viewContext.save()
            saved.insert(zoo.objectID)
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(await waitUntil(20) { heard == saved }, "heard \(heard.count) of \(saved.count)")
        let session = try PGConnection(uri: uri)
        _ = try PostgresHistory.latestPosition(session)
        _ = try PostgresHistory.readAll(session, after: Int64(Self.historyRows) - 10)
        // The acknowledgements (and the trim they may make) are spaced: give them time to run.
        try await Task.sleep(for: .milliseconds(300))
        _ = token

        let handle = try #require(FileHandle(forReadingAtPath: log))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(logStart))
        let plans = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        #expect(plans.contains("using folio_history_position"), "the server logged the history statements' plans")
        // Each logged statement, with its plan.
        let scanning = plans.components(separatedBy: "LOG:  duration:").filter { $0.contains("Seq Scan on folio_history") }
        #expect(scanning.count == 0, "statements that scan the whole history:\n\(scanning.prefix(3).joined(separator: "\n---\n"))")
    }
}
