import FolioPostgres
import FolioStore
import Foundation

/// The backends a test runs on: the same test code, parameterised, against
/// an SQLite file in WAL mode and a database on the throwaway PostgreSQL
/// server. Each ``makeStore()`` is a new, empty store of its own.
///
///     @Test(arguments: TestBackend.allCases)
///     func savesRoundTrip(_ backend: TestBackend) async throws {
///         let store = try await backend.makeStore()
///         let container = try PersistentContainer(schema: schema, store: store.description)
///     }
public enum TestBackend: String, CaseIterable, Sendable {
    case sqlite
    case postgreSQL

    /// A new empty store on this backend; keep it alive while it is used (an
    /// SQLite one lives in a temporary folder). The database is made by
    /// `psql` on a thread of its own (``BlockingWork``).
    public func makeStore() async throws -> TestStore {
        try await BlockingWork.run { try makeStore() }
    }

    /// A new empty store, made on the calling thread: never call it on the main actor.
    public func makeStore() throws -> TestStore {
        switch self {
        case .sqlite:
            let directory = try StoreTemporaryDirectory()
            let path = directory.path("store.sqlite")
            return TestStore(description: .file(path), address: path, directory: directory)
        case .postgreSQL:
            let uri = try PostgresCluster.shared().makeDatabase()
            return TestStore(description: .postgreSQL(uri), address: uri, directory: nil)
        }
    }
}

/// One store made by ``TestBackend/makeStore()``: what a container opens, and the folder an SQLite file lives in.
public struct TestStore: Sendable {
    public let description: StoreDescription
    /// The file's path or the server's URI, as a child process or an app takes it (`--store`).
    public let address: String
    let directory: StoreTemporaryDirectory?
}
