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

    /// Many writers of one namespace save side by side while clients in this
    /// process and in three others follow: every client hears every save
    /// exactly once, in the order the saves committed (their history
    /// positions), and each writer's saves commit in the order it made them.
    @Test func concurrentWritersOfOneNamespaceAreHeardOnceEachInCommitOrder() async throws {
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let uri = try await cluster.makeDatabase()
        let database = PostgresCluster.databaseName(uri)
        let writers = try (0..<6).map { _ in try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri)) }
        // A reader that never reads keeps every history row, so the commit order can be read at the end.
        try await cluster.runSQL("INSERT INTO folio_readers VALUES ('commit order', 0, 1e12)", database: database)
        let local = 3, processes = 3, perProcess = 3, savesEach = 15
        let clients = try (0..<local).map { _ in try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri)) }
        var heard: [[[ObjectID]]] = Array(repeating: [], count: local)
        let tokens = clients.enumerated().map { k, client in
            client.viewContext.observeChanges { changes in
                guard changes.origin == .otherProcess, !changes.inserted.isEmpty else { return }
                heard[k].append(changes.inserted.sorted())
            }
        }
        let children = try (0..<processes).map { _ in
            try StoreChildProcess(executable: worker, arguments: ["watch-many", uri, "\(perProcess)"])
        }
        for child in children { #expect(await child.waitForLine { $0 == "ready" } != nil, "\(child.lines.suffix(3).map(\.line))") }

        let saving = writers.enumerated().map { w, writer in
            let context = writer.newBackgroundContext()
            return Task {
                try await context.perform { c -> [ObjectID] in
                    var ids: [ObjectID] = []
                    for i in 0..<savesEach {
                        let animal = TestAnimal(context: c)
                        animal.commonName = "writer \(w) save \(i)"
                        try c.save()
                        ids.append(animal.objectID)
                    }
                    return ids
                }
            }
        }
        var byWriter: [[ObjectID]] = []
        for task in saving { byWriter.append(try await task.value) }
        let saved = Set(byWriter.flatMap { $0 })
        #expect(saved.count == writers.count * savesEach)

        // The commit order: each history row names its save's one new object.
        let history = try await cluster.runSQL("SELECT changes FROM folio_history ORDER BY position, seq", database: database)
        let order = history.split(separator: "\n").flatMap { ChangeSet(historyText: String($0), origin: .otherProcess).inserted }
        #expect(order.count == saved.count && Set(order) == saved, "one history row per save")
        var rank: [ObjectID: Int] = [:]
        for (r, id) in order.enumerated() { rank[id] = r }
        for (w, ids) in byWriter.enumerated() {
            #expect(ids.map { rank[$0] ?? -1 } == ids.map { rank[$0] ?? -1 }.sorted(), "writer \(w)'s saves commit in its order")
        }

        /// What is wrong with one client's change sets: misses, repeats, and sets heard before an earlier commit's.
        func problems(_ batches: [[ObjectID]]) -> [String] {
            var found: [String] = []
            let all = batches.flatMap { $0 }
            if all.count != Set(all).count { found.append("heard \(all.count - Set(all).count) saves twice") }
            if Set(all) != saved { found.append("missed \(saved.subtracting(all).count) saves") }
            var newest = -1
            for batch in batches {
                let ranks = batch.compactMap { rank[$0] }
                guard let first = ranks.min(), let last = ranks.max() else { continue }
                if first < newest { found.append("heard \(order[first]) after \(order[newest])") }
                newest = max(newest, last)
            }
            return found
        }
        func childHeard(_ child: StoreChildProcess, _ k: Int) -> [[ObjectID]] {
            child.lines.compactMap { entry -> [ObjectID]? in
                let prefix = "heard \(k) "
                guard entry.line.hasPrefix(prefix) else { return nil }
                let names = entry.line.dropFirst(prefix.count).split(separator: ",").map(String.init)
                return names.compactMap { name in order.first { $0.description == name } }
            }.filter { !$0.isEmpty }
        }
        #expect(
            await waitUntil(120) {
                heard.allSatisfy { $0.joined().count >= saved.count }
                    && children.allSatisfy { child in (0..<perProcess).allSatisfy { childHeard(child, $0).joined().count >= saved.count } }
            }, "every client heard every save")
        try await Task.sleep(for: .milliseconds(300))
        for (k, batches) in heard.enumerated() {
            #expect(problems(batches).isEmpty, "local client \(k): \(problems(batches))")
        }
        for (c, child) in children.enumerated() {
            for k in 0..<perProcess {
                let found = problems(childHeard(child, k))
                #expect(found.isEmpty, "client \(k) of process \(c): \(found)")
            }
            #expect(!child.lines.contains { $0.line.hasPrefix("reload") }, "process \(c) reloaded")
        }
        for child in children { await child.finish() }
        withExtendedLifetime((tokens, writers)) {}
    }
}
