import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioPostgres

/// The namespace's horizon never passes a row a transaction of the read's
/// snapshot can still write, whatever that transaction holds when the read
/// looks at the lock table. A cluster of its own: the test needs every
/// transaction ID that ends to be one of its own.
@Suite struct PostgresHistoryHorizonTests {
    /// A session in the namespace `horizon`, with the history's tables made.
    static func session(_ uri: String) throws -> PGConnection {
        let c = try PGConnection(uri: uri)
        try c.execute("SET search_path TO horizon")
        return c
    }

    /// What `author`'s save writes last: its history row, then COMMIT.
    static func history(_ author: String) throws -> [PGStatement] {
        let changes = ChangeSet(inserted: [ObjectID(entityName: "Note", rowID: 1)]).historyText()
        return [try #require(PostgresBackend.historyStatement(changes, author: author, namespace: "horizon")), PGStatement("COMMIT")]
    }

    /// A transaction that took its ID before any lock in the namespace (it
    /// wrote elsewhere first) writes its history row after a read passed
    /// the snapshot's `xmax`, which is its row's mark: the next reads still
    /// hear it (before, the namespace's horizon was `xmax` when the lock
    /// table showed no writer of the namespace, and the row was passed).
    @Test func aRowMarkedTheReadsXmaxByATransactionHoldingNothingThenIsStillRead() async throws {
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let uri = try await cluster.makeDatabase(prefix: "horizon")
        try await cluster.runSQL(
            """
            CREATE SCHEMA horizon;
            CREATE TABLE horizon.folio_history (seq BIGSERIAL PRIMARY KEY, position BIGINT NOT NULL, author TEXT NOT NULL, changes TEXT NOT NULL);
            CREATE TABLE horizon.folio_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            """, database: PostgresCluster.databaseName(uri))
        let reader = try Self.session(uri), early = try Self.session(uri), other = try Self.session(uri)

        // Its ID first (older than the other save's), no lock in the namespace yet.
        try early.execute("BEGIN")
        _ = try early.scalar("SELECT pg_current_xact_id()")
        _ = try other.pipeline([PGStatement("BEGIN")] + Self.history("other"))
        var position: Int64 = 0
        var authors: [String] = []
        func readOn() throws {
            // Until a read finds nothing and nothing waits past it (bounded: each read either moves or nudges).
            for _ in 0..<20 {
                let read = try PostgresHistory.readAll(reader, after: position)
                #expect(!read.trimmed)
                authors += read.rows.map(\.author)
                position = read.rows.last?.position ?? position
                if read.rows.isEmpty && !read.pending { return }
            }
        }
        try readOn()
        _ = try early.pipeline(Self.history("early"))
        try readOn()
        #expect(authors.sorted() == ["early", "other"], "every row read once: \(authors)")
    }
}
