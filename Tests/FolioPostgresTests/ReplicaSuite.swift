import FolioPostgres
import FolioStore
import FolioTestSupport
import Foundation

/// A replica suite's ground: a database of the shared test server and a
/// folder for the replica files, with the few steps every such suite takes.
@MainActor
protocol ReplicaSuite {
    var cluster: PostgresCluster { get }
    var uri: String { get }
    var dir: StoreTemporaryDirectory { get }
}

extension ReplicaSuite {
    var database: String { PostgresCluster.databaseName(uri) }

    /// A replica of the suite's database at `name` in its folder, made with
    /// `version` of the test schema, that syncs only when the test says and
    /// settles what its sync meets by `policy`.
    func replica(_ name: String, version: Int = 1, policy: MergePolicy = .error) throws -> PersistentContainer {
        let container = try PersistentContainer(
            schema: StoreTestSchema.make(version: version), store: .postgreSQL(uri, replica: dir.path(name)), syncsAutomatically: false)
        container.syncMergePolicy = policy
        return container
    }

    /// Runs SQL on the suite's database and returns what it printed, trimmed.
    @discardableResult
    func sql(_ text: String) async throws -> String {
        try await cluster.runSQL(text, database: database).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
