import Foundation

/// The cluster's operations for async code: each waits for its program on a
/// thread of its own (``BlockingWork``), so a main-actor test that starts,
/// stops or queries the server leaves the main actor to the other tests.
///
///     let cluster = try await PostgresCluster.started()
///     let uri = try await cluster.makeDatabase()
///     try await cluster.stop()
extension PostgresCluster {
    /// The cluster of this test process, started on first use.
    public static func shared() async throws -> PostgresCluster {
        try await BlockingWork.run { try shared() }
    }

    /// Starts a new cluster of the caller's own (to stop or restart it).
    public static func started() async throws -> PostgresCluster {
        try await BlockingWork.run { try PostgresCluster() }
    }

    /// Creates a new empty database and returns its URI.
    public func makeDatabase(prefix: String = "t") async throws -> String {
        try await BlockingWork.run { try self.makeDatabase(prefix: prefix) }
    }

    /// Runs SQL through `psql` on `database` and returns what it printed.
    @discardableResult
    public func runSQL(_ sql: String, database: String = "postgres") async throws -> String {
        try await BlockingWork.run { try self.runSQL(sql, database: database) }
    }

    /// Starts the server after ``stop()``.
    public func start() async throws {
        try await BlockingWork.run { try self.start() }
    }

    /// Stops the server at once.
    public func stop() async throws {
        try await BlockingWork.run { try self.stop() }
    }

    /// Restarts the server.
    public func restart() async throws {
        try await BlockingWork.run { try self.restart() }
    }
}
