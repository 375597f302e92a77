import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioPostgres

/// A feed's statements on the history read its position index, never the
/// whole table: a paused client keeps rows it has not read, so the history
/// can hold millions, and a read that scans them all costs every listening
/// process that much on each wake. The server logs the plan of every
/// statement while containers save and hear each other over a long
/// history; none scans `folio_history`. Generic plans are forced: a
/// session's prepared statements come to use them, and they know none of
/// their parameters (a read's position, say).
@MainActor
@Suite struct PostgresHistoryPlanTests {
    static let historyRows = 30_000

    @Test func historyStatementsReadTheIndexNotTheTable() async throws {
        let log = try await ServerPlanLog.start(prefix: "plans", settings: [("plan_cache_mode", "force_generic_plan")])
        defer { log.cluster.destroy() }
        do { _ = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(log.uri)) }

        // A long history below the newest transaction IDs, held by a paused reader, its statistics read.
        let raw = try PGConnection(uri: log.uri)
        try raw.execute(
            "DO $$ BEGIN FOR i IN 1..\(Self.historyRows) LOOP PERFORM pg_current_xact_id(); COMMIT; END LOOP; END $$")
        try raw.execute(
            """
            INSERT INTO folio_history (position, author, changes) SELECT g, 'earlier', '' FROM generate_series(1, \(Self.historyRows)) g;
            INSERT INTO folio_readers (reader, position, seen, silence) VALUES ('paused', 0, extract(epoch FROM now()), 1e9);
            ANALYZE folio_history
            """)
        let start = try log.length()

        // One container saves, the other hears each save (its feed reads, registers, acknowledges).
        let pair = try ListeningPair(uri: log.uri)
        _ = try await pair.saveZoos(5, perSave: 1)
        #expect(await pair.shows(5), "the controller shows \(pair.controller.fetchedObjects?.count ?? 0) of 5")
        _ = try PostgresHistory.latestPosition(raw)
        _ = try PostgresHistory.readAll(raw, after: Int64(Self.historyRows) - 10)
        // The acknowledgements (and the trim they may make) are spaced: give them time to run.
        try await Task.sleep(for: .milliseconds(300))

        #expect(try log.statements(since: start).contains { $0.contains("using folio_history_position") }, "plans were logged")
        let scanning = try log.statements(since: start) { $0.contains("Seq Scan on folio_history") }
        #expect(scanning.count == 0, "statements that scan the whole history:\n\(scanning.prefix(3).joined(separator: "\n---\n"))")
    }

    /// The same when the statements were prepared while the history was
    /// short and it grew after (no statistics read since): the plan a
    /// session keeps must not be the one for a short history.
    @Test func statementsPreparedOverAShortHistoryReadTheIndexOnceItGrew() async throws {
        let log = try await ServerPlanLog.start(prefix: "plansgrown")
        defer { log.cluster.destroy() }
        let pair = try ListeningPair(uri: log.uri)
        for n in 0..<20 {
            TestZoo(context: pair.a.viewContext).name = "early \(n)"
            try pair.a.viewContext.save()
            #expect(await pair.shows(n + 1))
        }
        let raw = try PGConnection(uri: log.uri)
        try raw.execute(
            """
            INSERT INTO folio_readers (reader, position, seen, silence) VALUES ('paused', 0, extract(epoch FROM now()), 1e9);
            INSERT INTO folio_history (position, author, changes) SELECT 1, 'earlier', '' FROM generate_series(1, \(Self.historyRows)) g
            """)
        let start = try log.length()
        for n in 0..<5 {
            TestZoo(context: pair.a.viewContext).name = "late \(n)"
            try pair.a.viewContext.save()
            #expect(await pair.shows(21 + n))
        }
        try await Task.sleep(for: .milliseconds(300))
        let scanning = try log.statements(since: start) { $0.contains("Seq Scan on folio_history") }
        #expect(scanning.count == 0, "statements that scan the whole history:\n\(scanning.prefix(3).joined(separator: "\n---\n"))")
    }
}
