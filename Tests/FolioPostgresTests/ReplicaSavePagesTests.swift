import CSQLite
import FolioPostgres
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// What a replica's save writes beside its rows: its outbox entry, in the
/// history row every save writes, and nothing else. The entry carries the
/// server version each row it changes was seen at, from which a push finds
/// the version to check; its number is never handed out again once pushed.
@MainActor
@Suite struct ReplicaSavePagesTests: ReplicaSuite {
    let cluster: PostgresCluster
    let uri: String
    let dir: StoreTemporaryDirectory
    static let saves = 40

    init() async throws {
        cluster = try await PostgresCluster.shared()
        uri = try await cluster.makeDatabase(prefix: "outbox")
        dir = try StoreTemporaryDirectory()
    }

    /// Frames in a file's write-ahead log: each page a commit wrote is one.
    func frames(_ path: String) -> Int {
        let size = ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? NSNumber)?.intValue ?? 0
        return size <= 32 ? 0 : (size - 32) / (4096 + 24)
    }

    /// Log frames per save of one animal's legs, on a store of 300 animals
    /// (opened again, so its log starts empty).
    func framesPerSave(_ open: () throws -> PersistentContainer, path: String) throws -> Double {
        do {
            let container = try open()
            for i in 0..<300 {
                let a = TestAnimal(context: container.viewContext)
                a.commonName = "animal \(i)"
            }
            try container.viewContext.save()
        }
        let container = try open()
        let animals = try container.viewContext.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)]))
        let before = frames(path)
        for i in 0..<Self.saves {
            animals[(i * 7) % animals.count].legs = i
            try container.viewContext.save()
        }
        return Double(frames(path) - before) / Double(Self.saves)
    }

    /// Each page a commit writes is copied into the log: the outbox entry
    /// shares the history row's page (a bigger row fills a page sooner, so a
    /// new one comes now and then). A page of entries of their own was one
    /// page a save more; a waiting count per row another.
    @Test func aReplicaSaveWritesItsOutboxEntryBesideWhatAPlainSaveWrites() throws {
        let replica = try framesPerSave({ try self.replica("r.sqlite") }, path: dir.path("r.sqlite"))
        let plain = try framesPerSave(
            { try PersistentContainer(schema: StoreTestSchema.make(), store: .file(dir.path("p.sqlite"))) }, path: dir.path("p.sqlite"))
        #expect(replica - plain < 0.6, "log frames per save: \(replica) on a replica, \(plain) on a plain store")
    }

    /// Once every waiting save was pushed and left the outbox, a new save's
    /// entry still takes a number the server has not seen: one it had would
    /// be taken for pushed already, and the save would never reach it.
    @Test func anEntryNumberIsNeverHandedOutAgainAfterItsEntryWasPushed() async throws {
        do {
            let a = try replica("a.sqlite")
            let x = TestAnimal(context: a.viewContext)
            x.commonName = "Quoll"
            try a.viewContext.save()
            for legs in [5, 6] {
                x.legs = legs
                try a.viewContext.save()
            }
            #expect(try await a.syncNow().waiting == 0)
            #expect(try await sql("SELECT pushed_through FROM folio_replicas") == "3")
            x.legs = 7
            try a.viewContext.save()
        }
        // Opened again: nothing of the numbers is kept in memory.
        let reopened = try replica("a.sqlite")
        let y = TestAnimal(context: reopened.viewContext)
        y.commonName = "Numbat"
        try reopened.viewContext.save()
        let report = try await reopened.syncNow()
        #expect(report.pushed == 2 && report.waiting == 0, "\(report)")
        #expect(try await sql("SELECT \"commonName\" || ':' || legs FROM \"TestAnimal\" ORDER BY id") == "Quoll:7\nNumbat:4")
        #expect(try await sql("SELECT pushed_through FROM folio_replicas") == "5")
    }

    /// A save made while an earlier save of the same row waited is checked,
    /// once that one was pushed in an earlier round, against the version the
    /// push left: no conflict of its own making, and another replica's edit
    /// made after that push still caught.
    @Test func aSaveMadeOnAWaitingOneIsCheckedAgainstWhatItsPushLeftRoundsLater() async throws {
        let a = try replica("a.sqlite"), b = try replica("b.sqlite")
        let x = TestAnimal(context: a.viewContext), y = TestAnimal(context: a.viewContext)
        x.commonName = "Tarsier"
        y.commonName = "Loris"
        try a.viewContext.save()
        _ = try await a.syncNow()
        _ = try await b.syncNow()
        let theirY = try #require(try b.viewContext.existingObject(with: y.objectID) as? TestAnimal)
        theirY.legs = 1
        try b.viewContext.save()
        _ = try await b.syncNow()

        x.legs = 5
        try a.viewContext.save()
        x.habitat = "Canopy"
        y.legs = 2
        try a.viewContext.save()
        let yConflict = SaveConflict(
            entity: "TestAnimal", id: y.objectID.rowID, kind: .changed,
            keys: [.init(key: "legs", stored: .integer(1), context: .integer(2))])
        // The first is pushed; the second waits on y, which B changed.
        let first = try await a.syncNow()
        #expect(first.pushed == 1 && first.unsettled == [yConflict])
        // A round later it is checked on the version its predecessor's push left: still y only.
        let second = try await a.syncNow()
        #expect(second.pushed == 0 && second.unsettled == [yConflict])

        _ = try await b.syncNow()
        let theirX = try #require(try b.viewContext.existingObject(with: x.objectID) as? TestAnimal)
        theirX.habitat = "Scrub"
        try b.viewContext.save()
        _ = try await b.syncNow()
        let third = try await a.syncNow()
        let xConflict = SaveConflict(
            entity: "TestAnimal", id: x.objectID.rowID, kind: .changed,
            keys: [.init(key: "habitat", stored: .text("Scrub"), context: .text("Canopy"))])
        #expect(third.pushed == 0 && Set(third.unsettled.map(\.id)) == [x.objectID.rowID, y.objectID.rowID])
        #expect(third.unsettled.contains(xConflict), "\(third.unsettled)")

        a.syncMergePolicy = .mergeByPropertyStoreTrump
        #expect(try await a.syncNow().waiting == 0)
        #expect(try await sql("SELECT legs || ':' || habitat FROM \"TestAnimal\" ORDER BY id") == "5:Scrub\n1:")
    }
}
