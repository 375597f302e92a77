import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioPostgres

/// A batch of waiting edits goes to the server as one UPDATE per run of
/// edits of the same keys of one entity, each of another row: runs broken
/// by a row written again, by other keys and by another entity, and runs of
/// NULLs alone, all land as saved, in one round trip.
@MainActor
@Suite struct ReplicaBatchUpdateTests: ReplicaSuite {
    let cluster: PostgresCluster
    let uri: String
    let dir: StoreTemporaryDirectory

    init() async throws {
        cluster = try await PostgresCluster.shared()
        uri = try await cluster.makeDatabase(prefix: "runs")
        dir = try StoreTemporaryDirectory()
    }

    func zoos(_ context: ObjectContext) throws -> String {
        try context.fetch(FetchRequest<TestZoo>(sortBy: [SortDescriptor(\.name)]))
            .map { "\($0.name):\($0.location ?? "-")" }.joined(separator: ",")
    }

    func animals(_ context: ObjectContext) throws -> String {
        try context.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)]))
            .map { "\($0.commonName):\($0.legs):\($0.habitat)" }.joined(separator: ",")
    }

    func items(_ context: ObjectContext) throws -> String {
        try context.fetch(FetchRequest<TestItem>(sortBy: [SortDescriptor(\.text)])).map {
            let fields: [String] = [
                $0.text, "\($0.count)", "\($0.big)", "\($0.ratio)", "\($0.flag)", "\($0.when.timeIntervalSince1970)",
                $0.bytes.map { String(format: "%02x", $0) }.joined(), $0.uuid.uuidString, $0.note ?? "-", $0.score.map { "\($0)" } ?? "-",
            ]
            return fields.joined(separator: ":")
        }.joined(separator: ",")
    }

    /// Three zoos saved and pushed on `a`, then `saves` saves each moving
    /// one of them to another place, in turn; the zoos and what they end as.
    func editThreeZoos(_ a: PersistentContainer, saves: Int) async throws -> ([TestZoo], String) {
        let zoo = (0..<3).map { i in
            let z = TestZoo(context: a.viewContext)
            z.name = "Zoo \(i)"
            return z
        }
        try a.viewContext.save()
        _ = try await a.syncNow()
        var last = ["", "", ""]
        for n in 0..<saves {
            zoo[n % 3].location = "Place \(n)"
            last[n % 3] = "Zoo \(n % 3):Place \(n)"
            try a.viewContext.save()
        }
        return (zoo, last.joined(separator: ","))
    }

    func serverZoos() async throws -> String {
        try await sql("SELECT string_agg(name || ':' || coalesce(location, '-'), ',' ORDER BY name) FROM \"TestZoo\"")
    }

    /// Whether the replica file records each zoo at the server's version.
    func versionsAgree(_ file: String) async throws -> Bool {
        let versions = try await sql("SELECT string_agg(id || ':' || \(RowVersion.column), ',' ORDER BY id) FROM \"TestZoo\"")
        let recorded = ReplicaFileQuery.value(
            dir.path(file),
            "SELECT group_concat(id || ':' || version, ',') FROM (SELECT id, version FROM folio_replica_rows WHERE entity = 'TestZoo' ORDER BY id)"
        )
        return recorded == versions
    }

    @Test func runsOfEditsLandAsSavedInOneRoundTrip() async throws {
        let a = try replica("a.sqlite"), c = try replica("c.sqlite")
        let context = a.viewContext
        let zoo = (0..<4).map { i in
            let z = TestZoo(context: context)
            z.name = "Zoo \(i)"
            z.location = "Place \(i)"
            return z
        }
        let animal = (0..<4).map { i in
            let x = TestAnimal(context: context)
            x.commonName = "Animal \(i)"
            return x
        }
        let item = (0..<2).map { i in
            let x = TestItem(context: context)
            x.text = "Item \(i)"
            x.score = 1.5
            return x
        }
        try context.save()
        _ = try await a.syncNow()
        _ = try await c.syncNow()
        let edits: [() -> Void] = [
            { zoo[0].location = nil },  // a run of NULLs alone
            { zoo[1].location = nil },
            { zoo[0].location = "North" },  // the same row again: a new run
            { animal[0].legs = 3 },  // another entity
            { animal[1].legs = 5 },
            { animal[2].legs = 6 },
            {
                animal[0].commonName = "Animal 0 renamed"  // other keys
                animal[0].legs = 7
            },
            { zoo[2].name = "Zoo 2 renamed" },
            { animal[1].habitat = "Savanna" },
            { animal[3].habitat = "Forest" },
            { item[0].score = nil },  // NULLs alone in a column of numbers
            { item[1].score = nil },
            {
                for (i, x) in item.enumerated() {  // one save, a key of every type, two rows
                    x.count = 10 + i
                    x.big = 1 << 40 + Int64(i)
                    x.ratio = 0.25 + Double(i)
                    x.flag = true
                    x.when = Date(timeIntervalSince1970: 86_400 * Double(i + 1) + 0.5)
                    x.bytes = Data([0, 1, UInt8(i)])
                    x.uuid = UUID(uuidString: "00000000-0000-0000-0000-00000000000\(i)")!
                    x.note = "Note \(i)"
                }
            },
        ]
        for edit in edits {
            edit()
            try context.save()
        }
        let before = ReplicaPush.batchesAtOnce.withLock { $0[uri] ?? 0 }
        let report = try await a.syncNow()
        #expect(report.pushed == edits.count && report.waiting == 0 && report.problem == nil, "\(report)")
        #expect(ReplicaPush.batchesAtOnce.withLock { $0[uri] ?? 0 } == before + 1, "the edits went in one round trip")

        let expectedZoos = "Zoo 0:North,Zoo 1:-,Zoo 2 renamed:Place 2,Zoo 3:Place 3"
        let expectedAnimals = "Animal 0 renamed:7:,Animal 1:5:Savanna,Animal 2:6:,Animal 3:4:Forest"
        #expect(try zoos(context) == expectedZoos)
        #expect(try animals(context) == expectedAnimals)
        let onServer = try await sql(
            "SELECT string_agg(name || ':' || coalesce(location, '-'), ',' ORDER BY name) FROM \"TestZoo\"")
        #expect(onServer == expectedZoos)
        let animalsOnServer = try await sql(
            "SELECT string_agg(\"commonName\" || ':' || legs || ':' || habitat, ',' ORDER BY \"commonName\") FROM \"TestAnimal\"")
        #expect(animalsOnServer == expectedAnimals)

        let expectedItems = try items(context)
        #expect(expectedItems.contains("Item 1:11:1099511627777:1.25:true:172800.5:000101:00000000-0000-0000-0000-000000000001:Note 1:-"))

        // Another replica pulls the edits; a new one copies them.
        _ = try await c.syncNow()
        #expect(try zoos(c.viewContext) == expectedZoos && animals(c.viewContext) == expectedAnimals)
        #expect(try items(c.viewContext) == expectedItems)
        let b = try replica("b.sqlite")
        #expect(try zoos(b.viewContext) == expectedZoos && animals(b.viewContext) == expectedAnimals)
        #expect(try items(b.viewContext) == expectedItems)
    }

    /// Batches pushed at once are recorded here while the next batch is on
    /// the server, so the next batch's rows written by the one before take
    /// that batch's versions from it, not from the file: every batch still
    /// goes at once, and the file ends with the server's versions.
    @Test func rowsEditedInEveryBatchGoAtOnceWhileTheBatchBeforeIsRecorded() async throws {
        let a = try replica("a.sqlite"), c = try replica("c.sqlite")
        let context = a.viewContext
        let saves = ReplicaPush.batchSize * 5 / 2
        let (zoo, expected) = try await editThreeZoos(a, saves: saves)
        let before = ReplicaPush.batchesAtOnce.withLock { $0[uri] ?? 0 }
        let report = try await a.syncNow()
        #expect(report.pushed == saves && report.waiting == 0 && report.problem == nil, "\(report)")
        #expect(ReplicaPush.batchesAtOnce.withLock { $0[uri] ?? 0 } == before + 3, "every batch went at once")

        #expect(try zoos(context) == expected)
        #expect(try await serverZoos() == expected)
        #expect(try await versionsAgree("a.sqlite"), "the file holds the server's versions")
        _ = try await c.syncNow()
        #expect(try zoos(c.viewContext) == expected)

        // The next edit is made on what the file recorded: it goes at once too.
        zoo[0].location = "Last"
        try context.save()
        #expect(try await a.syncNow().pushed == 1)
        #expect(ReplicaPush.batchesAtOnce.withLock { $0[uri] ?? 0 } == before + 4)
    }

    /// The file cannot take a pushed batch's record (another writer holds
    /// it) while the next batch is on the server (which commits it all the
    /// same): the sync fails. The next sync finds the batches the server
    /// has, takes their versions back and pushes the rest; no edit lands twice.
    @Test func aBatchTheFileCouldNotRecordIsTakenBackByTheNextSync() async throws {
        let a = try PersistentContainer(
            schema: StoreTestSchema.make(), store: .postgreSQL(uri, replica: dir.path("a.sqlite")), busyTimeout: 0.3,
            integrityCheckLimit: 8 << 20, syncsAutomatically: false)
        let saves = ReplicaPush.batchSize * 2 + 10
        let (_, expected) = try await editThreeZoos(a, saves: saves)
        let blocker = try SQLiteConnection(path: dir.path("a.sqlite"), busyTimeoutMilliseconds: 100)
        try blocker.execute("BEGIN IMMEDIATE")
        await #expect(throws: StoreError.self) { try await a.syncNow() }
        #expect(try await sql("SELECT pushed_through > 0 FROM folio_replicas") == "t", "the first batch reached the server")
        #expect(try await sql("SELECT count(*) FROM \"TestZoo\" WHERE location IS NOT NULL") == "3")
        try blocker.execute("ROLLBACK")

        let report = try await a.syncNow()
        #expect(report.waiting == 0 && report.problem == nil, "\(report)")
        #expect(try zoos(a.viewContext) == expected)
        #expect(try await serverZoos() == expected)
        // Each edit made one version: none went twice.
        #expect(try await sql("SELECT sum(\(RowVersion.column)) FROM \"TestZoo\"") == "\(3 + saves)")
        #expect(try await versionsAgree("a.sqlite"))
        let c = try replica("c.sqlite")
        #expect(try zoos(c.viewContext) == expected)
    }

    /// A batch sent at once with its COMMIT, on the bet that no row changed
    /// on the server since its saves, whose last row did change: the server
    /// refuses the whole statement, so nothing of the round trip commits.
    /// The batch then goes entry by entry: the first two edits land once
    /// each, and the third is a conflict, listed and waiting.
    @Test func aLostBetCommitsNothingOfItsRoundTrip() async throws {
        let a = try replica("a.sqlite"), b = try replica("b.sqlite")
        // A reader that never reads: every history row stays, to be counted.
        try await sql("INSERT INTO folio_readers (reader, position, seen) VALUES ('kept', 0, 1e12)")
        let (zoo, _) = try await editThreeZoos(a, saves: 0)
        _ = try await b.syncNow()
        let theirs = try #require(try b.viewContext.existingObject(with: zoo[2].objectID) as? TestZoo)
        theirs.location = "Theirs"
        try b.viewContext.save()
        _ = try await b.syncNow()

        for (i, z) in zoo.enumerated() {
            z.location = "Ours \(i)"
            try a.viewContext.save()
        }
        let before = ReplicaPush.batchesAtOnce.withLock { $0[uri] ?? 0 }
        let history = try await sql("SELECT count(*) FROM folio_history")
        let report = try await a.syncNow()
        #expect(report.pushed == 2 && report.waiting == 1 && report.unsettled.map(\.id) == [zoo[2].objectID.rowID], "\(report)")
        #expect(ReplicaPush.batchesAtOnce.withLock { $0[uri] ?? 0 } == before, "the bet was lost")
        #expect(try await serverZoos() == "Zoo 0:Ours 0,Zoo 1:Ours 1,Zoo 2:Theirs")
        // One version and one history row for each edit that landed: none of the lost round trip stayed.
        #expect(try await sql("SELECT string_agg(\(RowVersion.column)::text, ',' ORDER BY name) FROM \"TestZoo\"") == "2,2,2")
        #expect(try await sql("SELECT count(*) FROM folio_history") == "\(Int(history)! + 2)")
    }

    @Test func aValueTheServerChangesAsItWritesIsTakenBack() async throws {
        let a = try replica("a.sqlite")
        let item = TestItem(context: a.viewContext)
        item.text = "Item"
        try a.viewContext.save()
        _ = try await a.syncNow()
        try await sql(
            """
            CREATE FUNCTION upper_note() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.note := upper(NEW.note); RETURN NEW; END $$;
            CREATE TRIGGER upper_note BEFORE UPDATE ON "TestItem" FOR EACH ROW EXECUTE FUNCTION upper_note()
            """)
        item.note = "quiet"
        try a.viewContext.save()
        let before = ReplicaPush.batchesAtOnce.withLock { $0[uri] ?? 0 }
        let report = try await a.syncNow()
        #expect(report.pushed == 1 && report.waiting == 0, "\(report)")
        #expect(ReplicaPush.batchesAtOnce.withLock { $0[uri] ?? 0 } == before + 1)
        #expect(try await sql("SELECT note FROM \"TestItem\"") == "QUIET")
        #expect(ReplicaFileQuery.value(dir.path("a.sqlite"), "SELECT note FROM TestItem") == "QUIET")
    }
}
