import FolioPostgres
import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Another connection's commit to a replica file (a pull, or a save of
/// another container on the file) is seen by a fetch a moment before the
/// view context hears it. A report the context makes meanwhile is true to
/// what it has heard, and the controller shows the commit once it is merged.
@MainActor
@Suite struct ReplicaRaceTests {
    let cluster: PostgresCluster
    let uri: String
    let dir: StoreTemporaryDirectory

    init() async throws {
        cluster = try await PostgresCluster.shared()
        uri = try await cluster.makeDatabase(prefix: "race")
        dir = try StoreTemporaryDirectory()
    }

    func replica() throws -> PersistentContainer {
        try PersistentContainer(
            schema: StoreTestSchema.make(), store: .postgreSQL(uri, replica: dir.path("r.sqlite")),
            syncsAutomatically: false)
    }

    func animal(_ name: String, legs: Int, in context: ObjectContext) {
        let a = TestAnimal(context: context)
        a.commonName = name
        a.legs = legs
    }

    @Test func aCommitLandingUnheardWhileTheContextChangesBreaksNoReport() async throws {
        let mine = try replica()
        for (name, legs) in [("Okapi", 4), ("Tapir", 4), ("Heron", 2), ("Stork", 2)] { animal(name, legs: legs, in: mine.viewContext) }
        try mine.viewContext.save()
        let watch = try ResultsWatch(
            FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.legs), SortDescriptor(\.commonName)]),
            in: mine.viewContext, sectionKey: \TestAnimal.legs)
        let other = try replica()
        for round in 0..<3 {
            // The other connection moves one animal to another section, and the context here,
            // in the same turn (so before it can hear that), moves another one.
            let there = try other.viewContext.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)]))
            there[round].legs += 10
            try other.viewContext.save()
            let here = try mine.viewContext.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)]))
            here[3 - round].legs += 100
            mine.viewContext.processPendingChanges()
            try mine.viewContext.save()
            #expect(watch.problems.isEmpty, "round \(round): \(watch.problems)")
            #expect(await waitUntil { (try? watch.agreesWithFetch()) == true }, "round \(round)")
        }
        #expect(watch.problems.isEmpty)
        #expect(watch.reports >= 6)
    }

    /// Between a replica's first sync and its first pull, another reader's
    /// acknowledgement must not trim the history the pull needs: it would
    /// read the whole store again, and its controllers would reload rather
    /// than report the new rows.
    @Test func aNewReplicasFirstPullFindsTheHistoryItNeeds() async throws {
        let server = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let fresh = try replica()
        animal("Okapi", legs: 4, in: server.viewContext)
        try server.viewContext.save()
        // The ordinary container reads its own save and acknowledges it: every reader it knows of has passed it.
        server.checkForExternalChanges()
        let report = try await fresh.syncNow()
        #expect(report.pulled == 1 && report.problem == nil, "\(report)")
        #expect(try fresh.viewContext.fetch(FetchRequest<TestAnimal>()).map(\.commonName) == ["Okapi"])
    }
}
