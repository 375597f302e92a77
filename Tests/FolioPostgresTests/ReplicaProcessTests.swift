import FolioPostgres
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Another process on the same replica file: it saves through the outbox
/// like this one, and hears each pull as one change set, as it hears
/// another process's save on any store file.
@MainActor
@Suite struct ReplicaProcessTests {
    let worker = StoreChildProcess.sibling("folio-store-worker")

    @Test func anotherProcessOnTheReplicaHearsEachPullAsOneChangeSet() async throws {
        let uri = try await PostgresCluster.shared().makeDatabase(prefix: "replicaproc")
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("b.sqlite")
        let b = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri, replica: path), syncsAutomatically: false)
        _ = try await b.syncNow()  // this container holds the replica's sync from here on
        let a = try PersistentContainer(
            schema: StoreTestSchema.make(),
            store: .postgreSQL(uri, replica: dir.path("a.sqlite")), syncsAutomatically: false)
        let child = try StoreChildProcess(executable: worker, arguments: ["watch", uri + "#replica=" + path])
        #expect(await child.waitForLine { $0 == "ready" } != nil, "\(child.lines.map(\.line))")

        let made = (0..<3).map { i -> TestAnimal in
            let animal = TestAnimal(context: a.viewContext)
            animal.commonName = "Kiang \(i)"
            return animal
        }
        try a.viewContext.save()
        _ = try await a.syncNow()
        let report = try await b.syncNow()
        #expect(report.pulled == 1)
        let ids = made.map(\.objectID).sorted().map(\.description).joined(separator: ",")
        #expect(await child.waitForLine(timeout: 60) { $0.hasPrefix("heard ") } != nil)
        try await Task.sleep(for: .milliseconds(300))
        #expect(child.lines.filter { $0.line.hasPrefix("heard ") }.map(\.line) == ["heard " + ids], "\(child.lines.map(\.line))")

        // The other process's save goes through the same outbox, and this container pushes it.
        child.closeInput()
        await child.finish()
        let insert = try StoreChildProcess(executable: worker, arguments: ["insert", uri + "#replica=" + path, "Saola"])
        #expect(await insert.waitForLine { $0.hasPrefix("saved ") } != nil, "\(insert.lines.map(\.line))")
        insert.closeInput()
        await insert.finish()
        let pushed = try await b.syncNow()
        #expect(pushed.pushed == 1 && pushed.waiting == 0, "\(pushed)")
        _ = try await a.syncNow()
        #expect(try a.viewContext.count(for: FetchRequest<TestAnimal>(predicate: #Predicate { $0.commonName == "Saola" })) == 1)
    }
}
