import FolioPostgres
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Waiting saves are pushed many to a server transaction: in commit order,
/// each checked and resolved on its own, and one the server refuses or the
/// policy leaves to the app stops the push after the saves before it.
@MainActor
@Suite struct ReplicaBatchPushTests: ReplicaSuite {
    let cluster: PostgresCluster
    let uri: String
    let dir: StoreTemporaryDirectory

    init() async throws {
        cluster = try await PostgresCluster.shared()
        uri = try await cluster.makeDatabase(prefix: "batch")
        dir = try StoreTemporaryDirectory()
    }

    func zoo(_ name: String, in context: ObjectContext) {
        TestZoo(context: context).name = name
    }

    @Test func manyWaitingSavesReachTheServerInCommitOrder() async throws {
        let b = try replica("b.sqlite")
        let context = b.viewContext
        var animals: [TestAnimal] = []
        var saves = 0
        for i in 0..<30 {
            let a = TestAnimal(context: context)
            a.commonName = "animal \(i + 10)"
            animals.append(a)
            try context.save()
            saves += 1
        }
        // Each animal's legs written many times: only commit order leaves the last values.
        for round in 1...15 {
            for (i, a) in animals.enumerated() {
                a.legs = round * 10 + i % 7
                try context.save()
                saves += 1
            }
        }
        for a in animals.suffix(5) { context.delete(a) }
        try context.save()
        saves += 1
        let report = try await b.syncNow()
        #expect(report.pushed == saves && report.waiting == 0 && report.problem == nil, "\(report)")
        let expected = (0..<25).map { "animal \($0 + 10):\(150 + $0 % 7)" }.joined(separator: ",")
        let onServer = try await sql("SELECT string_agg(\"commonName\" || ':' || legs, ',' ORDER BY \"commonName\") FROM \"TestAnimal\"")
        #expect(onServer == expected, "\(onServer)")
        let a = try replica("a.sqlite")
        #expect(
            try a.viewContext.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)]))
                .map { "\($0.commonName):\($0.legs)" }.joined(separator: ",") == expected)
    }

    @Test func aRefusedSaveStopsThePushAfterTheSavesBeforeItAndLosesNothing() async throws {
        let a = try replica("a.sqlite"), b = try replica("b.sqlite")
        zoo("Twin", in: a.viewContext)
        try a.viewContext.save()
        _ = try await a.syncNow()
        for name in ["Alpha", "Twin", "Gamma"] {
            zoo(name, in: b.viewContext)
            try b.viewContext.save()
        }
        let refused = try await b.syncNow()
        #expect(refused.pushed == 1 && refused.waiting == 2 && refused.problem?.contains("must be unique") == true, "\(refused)")
        #expect(try await sql("SELECT string_agg(name, ',' ORDER BY name) FROM \"TestZoo\"") == "Alpha,Twin")
        let twin = try b.viewContext.fetch(FetchRequest<TestZoo>(sortBy: [SortDescriptor(\.name)])).filter {
            $0.name == "Twin" && $0.objectID.rowID >= 1 << 40
        }
        try #require(twin.count == 1)
        twin[0].name = "Twin 2"
        try b.viewContext.save()
        let settled = try await b.syncNow()
        #expect(settled.waiting == 0 && settled.problem == nil, "\(settled)")
        #expect(try await sql("SELECT string_agg(name, ',' ORDER BY name) FROM \"TestZoo\"") == "Alpha,Gamma,Twin,Twin 2")
    }

    @Test func aConflictMidBatchIsResolvedByThePolicyOrWaitsWithTheSavesAfterIt() async throws {
        let a = try replica("a.sqlite")
        for name in ["Okapi", "Tapir"] {
            let animal = TestAnimal(context: a.viewContext)
            animal.commonName = name
        }
        try a.viewContext.save()
        _ = try await a.syncNow()
        let b = try replica("b.sqlite")
        let there = try a.viewContext.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)]))
        let here = try b.viewContext.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)]))
        there[1].legs = 7  // Tapir, changed on the server meanwhile
        try a.viewContext.save()
        _ = try await a.syncNow()
        here[0].legs = 5
        try b.viewContext.save()
        here[1].legs = 6
        try b.viewContext.save()
        here[0].habitat = "Forest"
        try b.viewContext.save()
        let waiting = try await b.syncNow()
        #expect(waiting.pushed == 1 && waiting.waiting == 2 && waiting.unsettled.count == 1, "\(waiting)")
        #expect(
            try await sql(
                "SELECT string_agg(\"commonName\" || ':' || legs || ':' || habitat, ',' ORDER BY \"commonName\") FROM \"TestAnimal\"")
                == "Okapi:5:,Tapir:7:")
        b.syncMergePolicy = .mergeByPropertyObjectTrump
        let settled = try await b.syncNow()
        #expect(settled.pushed == 2 && settled.waiting == 0 && settled.unsettled.isEmpty, "\(settled)")
        #expect(
            try await sql(
                "SELECT string_agg(\"commonName\" || ':' || legs || ':' || habitat, ',' ORDER BY \"commonName\") FROM \"TestAnimal\"")
                == "Okapi:5:Forest,Tapir:6:")
    }

    @Test func anEditRefusedAmongEditsStopsThePushAfterTheEditsBeforeIt() async throws {
        let a = try replica("a.sqlite")
        for name in ["North", "South", "East"] { zoo(name, in: a.viewContext) }
        try a.viewContext.save()
        _ = try await a.syncNow()
        let b = try replica("b.sqlite")
        let zoos = try b.viewContext.fetch(FetchRequest<TestZoo>(sortBy: [SortDescriptor(\.name)]))  // East, North, South
        zoo("West", in: a.viewContext)
        try a.viewContext.save()
        _ = try await a.syncNow()
        // Edits only, each a save: the second takes a name the server gave another zoo meanwhile.
        for (zoo, name) in zip(zoos, ["East 2", "West", "South 2"]) {
            zoo.name = name
            try b.viewContext.save()
        }
        let refused = try await b.syncNow()
        #expect(refused.pushed == 1 && refused.waiting == 2 && refused.problem?.contains("must be unique") == true, "\(refused)")
        #expect(try await sql("SELECT string_agg(name, ',' ORDER BY name) FROM \"TestZoo\"") == "East 2,North,South,West")
        zoos[1].name = "North 2"
        try b.viewContext.save()
        let settled = try await b.syncNow()
        #expect(settled.waiting == 0 && settled.problem == nil, "\(settled)")
        #expect(try await sql("SELECT string_agg(name, ',' ORDER BY name) FROM \"TestZoo\"") == "East 2,North 2,South 2,West")
    }
}
