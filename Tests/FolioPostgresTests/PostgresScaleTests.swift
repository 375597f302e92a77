import FolioPostgres
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Many clients on one server: several containers in this process and
/// several in each of three other processes hear every save of a writer
/// exactly once and in order, through a server restart, ended listening
/// connections and ended connections of every kind; and listening costs
/// one server connection per process, however many containers it holds.
@MainActor
@Suite(.serialized) struct PostgresScaleTests {
    let worker = StoreChildProcess.sibling("folio-store-worker")

    /// The inserted objects a client heard, in the order heard (each change set's in row order), and its reloads.
    final class Heard {
        var inserted: [ObjectID] = []
        var reloads = 0
    }

    /// Saves one animal, retrying while the server is away (the changes stay in the context meanwhile).
    func insert(_ name: String, into container: PersistentContainer) async throws -> ObjectID {
        let animal = TestAnimal(context: container.viewContext)
        animal.commonName = name
        let deadline = Date().addingTimeInterval(120)
        while true {
            do {
                try container.viewContext.save()
                return animal.objectID
            } catch let error as StoreError {
                guard case .offline = error, Date() < deadline else { throw error }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    @Test func everyClientHearsEverySaveOnceInOrderThroughRestartsAndEndedConnections() async throws {
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let uri = try await cluster.makeDatabase()
        let database = PostgresCluster.databaseName(uri)
        let writer = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let local = 6, processes = 3, perProcess = 4
        let clients = try (0..<local).map { _ in try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri)) }
        var heard: [Heard] = []
        var tokens: [ObservationToken] = []
        for client in clients {
            let h = Heard()
            heard.append(h)
            tokens.append(
                client.viewContext.observeChanges { changes in
                    if changes.isReload { h.reloads += 1 }
                    guard changes.origin == .otherProcess else { return }
                    h.inserted += changes.inserted.sorted()
                })
        }
        let children = try (0..<processes).map { _ in
            try StoreChildProcess(executable: worker, arguments: ["watch-many", uri, "\(perProcess)"])
        }
        for child in children { #expect(await child.waitForLine { $0 == "ready" } != nil, "\(child.lines.suffix(3).map(\.line))") }

        // One listening connection per process: this one and each child's.
        let listeners = "SELECT pid FROM pg_stat_activity WHERE datname = '\(database)' AND application_name LIKE '% (listener)'"
        func count(_ sql: String) async -> Int { ((try? await cluster.runSQL(sql)) ?? "").split(separator: "\n").count }
        let listening = await waitUntil(30) { await count(listeners) == 1 + processes }
        let listenerCount = await count(listeners)
        #expect(listening, "listeners: \(listenerCount)")
        let all = "SELECT pid FROM pg_stat_activity WHERE datname = '\(database)'"
        let connections = await count(all)
        // Each process: a listener and at most a pool of working connections per kind; the writer its own session.
        #expect(connections <= (1 + processes) * 9 + 1, "\(connections) connections for \(local + processes * perProcess + 1) containers")

        var saved: [ObjectID] = []
        for i in 0..<60 {
            switch i {
            case 15: try await cluster.restart()
            case 30: try await cluster.runSQL("SELECT pg_terminate_backend(pid) FROM (\(listeners)) l")
            case 45: try await cluster.runSQL("SELECT pg_terminate_backend(pid) FROM (\(all)) a WHERE pid <> pg_backend_pid()")
            default: break
            }
            saved.append(try await insert(String(format: "save %02d", i), into: writer))
        }
        let expected = saved.map(\.description).joined(separator: ",")
        func childHeard(_ child: StoreChildProcess, _ k: Int) -> [String] {
            child.lines.compactMap { entry -> [String]? in
                let prefix = "heard \(k) "
                guard entry.line.hasPrefix(prefix) else { return nil }
                return entry.line.dropFirst(prefix.count).split(separator: ",").map(String.init)
            }.flatMap { $0 }
        }
        #expect(
            await waitUntil(120) {
                heard.allSatisfy { $0.inserted.count >= saved.count }
                    && children.allSatisfy { child in (0..<perProcess).allSatisfy { childHeard(child, $0).count >= saved.count } }
            }, "every client heard every save")
        for (k, h) in heard.enumerated() {
            #expect(h.inserted == saved, "local client \(k) heard \(h.inserted.count) of \(saved.count), in order once each")
            #expect(h.reloads == 0, "local client \(k) reloaded")
        }
        for (c, child) in children.enumerated() {
            for k in 0..<perProcess {
                #expect(childHeard(child, k).joined(separator: ",") == expected, "client \(k) of process \(c)")
            }
            #expect(!child.lines.contains { $0.line.hasPrefix("reload") }, "process \(c) reloaded")
        }
        #expect(await waitUntil(30) { await count(listeners) == 1 + processes }, "each process listens again, once")
        for child in children { await child.finish() }
        withExtendedLifetime(tokens) {}
    }
}
