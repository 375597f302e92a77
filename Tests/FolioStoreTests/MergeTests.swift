import FolioStore
import FolioTestSupport
import Foundation
import Testing

@MainActor
@Suite struct MergeTests {
    /// An in-memory container holding one saved animal.
    func savedOcelot() throws -> (PersistentContainer, TestAnimal) {
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: nil)
        let a = TestAnimal(context: container.viewContext)
        a.commonName = "Ocelot"
        try container.viewContext.save()
        return (container, a)
    }

    @Test func backgroundSaveMergesIntoViewContext() async throws {
        let (container, a) = try savedOcelot()
        let c = container.viewContext
        var received: [ChangeSet] = []
        let token = c.observeChanges { received.append($0) }
        let id = a.objectID
        let newID = try await container.performBackgroundTask { bg -> ObjectID in
            let other: TestAnimal = bg.object(with: id)
            other.commonName = "Jaguar"
            let n = TestAnimal(context: bg)
            n.commonName = "Tapir"
            try bg.save()
            return n.objectID
        }
        #expect(await waitUntil { received.count == 1 })
        #expect(received.first?.origin == .otherContext)
        #expect(received.first?.updated == [id: ["commonName"]])
        #expect(received.first?.inserted == [newID])
        #expect(a.commonName == "Jaguar")
        #expect(try c.count(for: FetchRequest<TestAnimal>()) == 2)
        token.cancel()
    }

    @Test func mergeKeepsLocalChangesAndAdoptsOthers() async throws {
        let (container, a) = try savedOcelot()
        let c = container.viewContext
        a.habitat = "Local edit"
        let id = a.objectID
        var merges = 0
        let token = c.observeChanges { if $0.origin == .otherContext { merges += 1 } }
        let bg = container.newBackgroundContext()
        try await bg.perform { ctx in
            let other: TestAnimal = ctx.object(with: id)
            other.commonName = "Jaguar"
            try ctx.save()
        }
        #expect(await waitUntil { merges == 1 })
        #expect(a.commonName == "Jaguar")
        #expect(a.habitat == "Local edit")
        #expect(a.changedKeys == ["habitat"])
        try c.save()
        token.cancel()
    }

    /// An object changed here only in its to-many list has no committed
    /// copy of its attributes; a merge still adopts the other save's values
    /// (the change set names them), and a rollback keeps them.
    @Test func mergeIntoAnObjectChangedOnlyInItsListAdoptsTheStoredValues() async throws {
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: nil)
        let c = container.viewContext
        let cats = TestClassification(context: c)
        cats.order = "Carnivora"; cats.family = "Felidae"
        let dogs = TestClassification(context: c)
        dogs.order = "Carnivora"; dogs.family = "Canidae"
        let a = TestAnimal(context: c)
        a.commonName = "Ocelot"
        a.classification = cats
        try c.save()
        a.classification = dogs
        c.processPendingChanges()
        #expect(cats.hasChanges && cats.changedKeys == ["animals"])
        var merges = 0
        let token = c.observeChanges { if $0.origin == .otherContext { merges += 1 } }
        let id = cats.objectID
        try await container.newBackgroundContext().perform { ctx in
            ctx.object(with: id, as: TestClassification.self).family = "Felinae"
            try ctx.save()
        }
        #expect(await waitUntil { merges == 1 })
        #expect(cats.family == "Felinae")
        c.rollback()
        #expect(cats.family == "Felinae")
        #expect(a.classification === cats)
        token.cancel()
    }

    @Test func deletionsElsewhereLeaveTheContext() async throws {
        let (container, a) = try savedOcelot()
        let c = container.viewContext
        let id = a.objectID
        var deleted: Set<ObjectID> = []
        let token = c.observeChanges { deleted.formUnion($0.deleted) }
        try await container.performBackgroundTask { ctx in
            ctx.delete(ctx.object(with: id))
            try ctx.save()
        }
        #expect(await waitUntil { deleted == [id] })
        #expect(a.isDeleted)
        #expect(try c.count(for: FetchRequest<TestAnimal>()) == 0)
        c.checkInvariants()
        token.cancel()
    }

    @Test func asyncSequenceDeliversChangeSets() async throws {
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: nil)
        let c = container.viewContext
        let stream = c.changes()
        let a = TestAnimal(context: c)
        a.commonName = "Ocelot"
        try c.save()
        var iterator = stream.makeAsyncIterator()
        let pending = await iterator.next()
        let saved = await iterator.next()
        #expect(pending?.origin == .pending)
        let temporary = try #require(pending?.inserted.first)
        #expect(temporary.isTemporary)
        #expect(saved?.permanentIDs == [temporary: a.objectID])
    }

    @Test func willSaveReportsPendingChanges() throws {
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: nil)
        let c = container.viewContext
        var pending: [ChangeSet] = []
        let token = c.observeWillSave { pending.append($0) }
        let a = TestAnimal(context: c)
        a.commonName = "Ocelot"
        let temporary = a.objectID
        try c.save()
        #expect(pending.map(\.inserted) == [[temporary]])
        token.cancel()
    }

    @Test func twoContainersOnOneFileSeeEachOthersSaves() async throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("shared.sqlite")
        let first = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
        let second = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
        var heard: [ChangeSet] = []
        let token = second.viewContext.observeChanges { heard.append($0) }
        let a = TestAnimal(context: first.viewContext)
        a.commonName = "Ocelot"
        try first.viewContext.save()
        #expect(await waitUntil { !heard.isEmpty })
        #expect(heard.first?.origin == .otherProcess)
        #expect(heard.first?.inserted == [a.objectID])
        let seen = try second.viewContext.fetch(FetchRequest<TestAnimal>())
        #expect(seen.map(\.commonName) == ["Ocelot"])
        token.cancel()
    }
}
