import FolioStore
import FolioTestSupport
import Testing

@testable import FolioPostgres

/// A session keeps a bounded set of prepared statements and starts afresh
/// (`DEALLOCATE ALL`) when it is full. A pipeline whose later statement
/// causes that must not send an earlier one by a name the server has just
/// forgotten.
@Suite struct PreparedStatementEvictionTests {
    @Test func aPipelineThatFillsTheCacheSendsItsEarlierStatementsByNamesThatExist() async throws {
        let uri = try await PostgresCluster.shared().makeDatabase()
        let connection = try PGConnection(uri: uri)
        func select(_ k: Int) -> PGStatement { PGStatement("SELECT $1::bigint + \(k)", [.integer(1)]) }
        // Fill the session's statements: each is prepared on its second use.
        for k in 0..<PGStatementCache.limit {
            _ = try connection.pipeline([select(k)])
            _ = try connection.pipeline([select(k)])
        }
        let next = PGStatementCache.limit
        _ = try connection.pipeline([select(next)])  // seen once: prepared when it comes again
        // The first is sent by its name, the second's preparation empties the cache.
        let results = try connection.pipeline([select(0), select(next), select(1)])
        #expect(results.count == 3)
        // And the session goes on working with the statements it prepares afresh.
        for k in [0, next, 1, 2] { _ = try connection.pipeline([select(k)]) }
    }
}
