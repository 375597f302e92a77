import FolioResults
import FolioStore
import FolioTestSupport
import Foundation

@testable import FolioPostgres

/// A database on a cluster of its own whose sessions log the plan of every
/// statement they run (`auto_explain`), for tests of what the server chose
/// to do with Folio's statements.
struct ServerPlanLog {
    let cluster: PostgresCluster
    let uri: String

    /// Starts the cluster and the database; each session opened from then
    /// on logs its plans, with `settings` (name and value) in force too.
    static func start(prefix: String, settings: [(String, String)] = []) async throws -> ServerPlanLog {
        let cluster = try await PostgresCluster.started()
        do {
            let uri = try await cluster.makeDatabase(prefix: prefix)
            let raw = try PGConnection(uri: uri)
            guard case .text(let database)? = try raw.scalar("SELECT current_database()") else {
                throw StoreError.server(store: uri, code: "", message: "no database name", sql: "")
            }
            for (name, value) in [("session_preload_libraries", "auto_explain"), ("auto_explain.log_min_duration", "0")] + settings {
                try raw.execute("ALTER DATABASE \(database) SET \(name) = '\(value)'")
            }
            return ServerPlanLog(cluster: cluster, uri: uri)
        } catch {
            cluster.destroy()
            throw error
        }
    }

    /// How long the log is now: plans logged later are read from here.
    func length() throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: cluster.directory + "/log")[.size] as? Int) ?? 0
    }

    /// The statements logged since `offset`, each with its plan.
    func statements(since offset: Int = 0) throws -> [String] {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: cluster.directory + "/log"))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(offset))
        let text = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        return text.components(separatedBy: "LOG:  duration:").dropFirst().map { $0 }
    }

    /// The statements logged since `offset` with a plan line for which `matches` holds.
    func statements(since offset: Int = 0, where matches: (String) -> Bool) throws -> [String] {
        try statements(since: offset).filter { $0.components(separatedBy: "\n").contains(where: matches) }
    }
}

/// Two containers on one store: `b`'s controller shows every zoo `a` saves.
@MainActor
struct ListeningPair {
    let a: PersistentContainer
    let b: PersistentContainer
    let controller: FetchedResultsController<TestZoo>

    init(uri: String) throws {
        a = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        b = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        controller = FetchedResultsController(
            fetchRequest: FetchRequest<TestZoo>(sortBy: [SortDescriptor(\.name)]), managedObjectContext: b.viewContext)
        try controller.performFetch()
    }

    /// Saves `count` new zoos in `a`, `perSave` to a save, and returns them.
    func saveZoos(_ count: Int, perSave: Int) async throws -> [TestZoo] {
        var zoos: [TestZoo] = []
        while zoos.count < count {
            for _ in 0..<min(perSave, count - zoos.count) {
                let zoo = TestZoo(context: a.viewContext)
                zoo.name = String(format: "zoo %05d", zoos.count)
                zoos.append(zoo)
            }
            try a.viewContext.save()
            if zoos.count < count { try await Task.sleep(for: .milliseconds(20)) }
        }
        return zoos
    }

    /// Whether `b`'s controller comes to show `count` zoos within `seconds`.
    func shows(_ count: Int, within seconds: Double = 30) async -> Bool {
        await waitUntil(seconds) { controller.fetchedObjects?.count == count }
    }
}
