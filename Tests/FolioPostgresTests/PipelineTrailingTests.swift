import FolioStore
import FolioTestSupport
import Testing

@testable import FolioPostgres

/// A save's announcement rides after its COMMIT in the same round trip; it
/// may fail (a full notification queue) after the save committed, and the
/// save must not then be reported failed.
@Suite struct PipelineTrailingTests {
    @Test func aTrailingStatementThatFailsFailsNoneBeforeIt() async throws {
        let uri = try await PostgresCluster.shared().makeDatabase(prefix: "trailing")
        let connection = try PGConnection(uri: uri)
        try connection.execute("CREATE TABLE saved (x bigint)")
        let save = [PGStatement("BEGIN"), PGStatement("INSERT INTO saved VALUES ($1) RETURNING x", [.integer(7)]), PGStatement("COMMIT")]

        let failing = try connection.pipeline(save, trailing: PGStatement("SELECT 1 / $1::int", [.integer(0)]))
        #expect(failing.results.count == 3 && !failing.trailingRan)
        #expect(failing.results[1].int64(row: 0, column: 0) == 7)

        let running = try connection.pipeline(save, trailing: PGStatement("SELECT 1"))
        #expect(running.trailingRan)
        // Both saves committed, and the session goes on.
        #expect(try connection.scalar("SELECT count(*) FROM saved") == .integer(2))
        #expect(!connection.isInTransaction)
    }
}
