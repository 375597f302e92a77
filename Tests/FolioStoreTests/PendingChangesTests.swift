import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// The context's own unsaved changes reach observers in processed batches
/// (origin `.pending`), a save as the temporary-to-permanent ID mapping only,
/// and a rollback as a batch that reverses what was reported.
@MainActor
@Suite struct PendingChangesTests {
    func container() throws -> PersistentContainer {
        try PersistentContainer(schema: StoreTestSchema.make(), path: nil)
    }

    /// Three saved animals: Ocelot, Manatee, Gorilla.
    func saved(_ c: ObjectContext) throws -> [TestAnimal] {
        let animals = ["Ocelot", "Manatee", "Gorilla"].map { name -> TestAnimal in
            let a = TestAnimal(context: c)
            a.commonName = name
            return a
        }
        try c.save()
        return animals
    }

    /// What a context's observers heard, in order.
    final class Heard {
        var sets: [ChangeSet] = []
        var token: ObservationToken?
    }

    /// A view context with the three saved animals, and what its observers hear from now on.
    func observedAnimals() throws -> (ObjectContext, [TestAnimal], Heard) {
        let c = try container().viewContext
        let animals = try saved(c)
        let heard = Heard()
        heard.token = c.observeChanges { [unowned heard] in heard.sets.append($0) }
        return (c, animals, heard)
    }

    @Test func oneBatchSaysWhatChangedSinceTheLastOne() throws {
        let (c, animals, heard) = try observedAnimals()
        let added = TestAnimal(context: c)
        added.commonName = "Tapir"
        animals[0].habitat = "Forest"
        animals[0].legs = 3
        c.delete(animals[2])
        c.processPendingChanges()
        #expect(
            heard.sets == [
                ChangeSet(
                    inserted: [added.objectID], updated: [animals[0].objectID: ["habitat", "legs"]],
                    deleted: [animals[2].objectID], origin: .pending)
            ])
        #expect(added.objectID.isTemporary)
        c.processPendingChanges()
        #expect(heard.sets.count == 1, "nothing changed since the last batch")
        added.habitat = "River"
        c.processPendingChanges()
        #expect(heard.sets.last == ChangeSet(updated: [added.objectID: ["habitat"]], origin: .pending))
    }

    @Test func anObjectInsertedAndDeletedBetweenBatchesIsNotMentioned() throws {
        let (c, _, heard) = try observedAnimals()
        let brief = TestAnimal(context: c)
        brief.commonName = "Quagga"
        c.delete(brief)
        c.processPendingChanges()
        #expect(heard.sets.isEmpty)
    }

    @Test func aSaveProcessesWhatIsLeftThenReportsOnlyThePermanentIDs() throws {
        let (c, animals, heard) = try observedAnimals()
        var didSave: [ChangeSet] = []
        let saveToken = c.observeDidSave { didSave.append($0) }
        let first = TestAnimal(context: c)
        first.commonName = "Tapir"
        c.processPendingChanges()
        let firstTemporary = first.objectID
        let second = TestAnimal(context: c)
        second.commonName = "Okapi"
        let secondTemporary = second.objectID
        animals[1].legs = 0
        try c.save()
        #expect(heard.sets.count == 3)
        #expect(heard.sets[0] == ChangeSet(inserted: [firstTemporary], origin: .pending))
        #expect(
            heard.sets[1] == ChangeSet(inserted: [secondTemporary], updated: [animals[1].objectID: ["legs"]], origin: .pending),
            "what was not processed is processed before the save")
        #expect(
            heard.sets[2]
                == ChangeSet(
                    origin: .thisContext,
                    permanentIDs: [firstTemporary: first.objectID, secondTemporary: second.objectID]),
            "the save itself says only which temporary ID became which permanent one")
        #expect(!first.objectID.isTemporary && !second.objectID.isTemporary)
        #expect(didSave.count == 1)
        #expect(didSave.first?.inserted == [first.objectID, second.objectID])
        #expect(didSave.first?.updated == [animals[1].objectID: ["legs"]])
        #expect(didSave.first?.origin == .thisContext)
        withExtendedLifetime(saveToken) {}
    }

    @Test func aRollbackIsReportedBackAsOneBatch() throws {
        let (c, animals, heard) = try observedAnimals()
        let added = TestAnimal(context: c)
        added.commonName = "Tapir"
        animals[0].commonName = "Jaguar"
        c.delete(animals[2])
        c.processPendingChanges()
        // A change not processed yet is reversed too, and reported with the rest.
        animals[1].habitat = "Coast"
        let temporary = added.objectID
        c.rollback()
        #expect(heard.sets.count == 2)
        #expect(
            heard.sets[1]
                == ChangeSet(
                    inserted: [animals[2].objectID],
                    updated: [
                        animals[0].objectID: ["commonName"],
                        animals[1].objectID: ["habitat"],
                    ],
                    deleted: [temporary], origin: .pending))
        #expect(animals[0].commonName == "Ocelot")
    }

    @Test func undoIsReportedInTheNextBatch() throws {
        let (c, animals, heard) = try observedAnimals()
        let added = TestAnimal(context: c)
        added.commonName = "Tapir"
        c.processPendingChanges()
        c.undo()
        c.processPendingChanges()
        #expect(heard.sets.last == ChangeSet(deleted: [added.objectID], origin: .pending))
        c.delete(animals[0])
        c.processPendingChanges()
        c.undo()
        c.processPendingChanges()
        #expect(heard.sets.last == ChangeSet(inserted: [animals[0].objectID], origin: .pending), "an undone delete brings the object back")
    }

    @Test func theViewContextProcessesOncePerMainActorTurn() async throws {
        let (c, animals, heard) = try observedAnimals()
        animals[0].legs = 2
        animals[1].legs = 1
        #expect(heard.sets.isEmpty, "nothing is processed within the turn")
        #expect(await waitUntil { !heard.sets.isEmpty })
        #expect(heard.sets == [ChangeSet(updated: [animals[0].objectID: ["legs"], animals[1].objectID: ["legs"]], origin: .pending)])
        animals[2].legs = 7
        #expect(await waitUntil { heard.sets.count == 2 })
        #expect(heard.sets.last == ChangeSet(updated: [animals[2].objectID: ["legs"]], origin: .pending))
        // Later turns that change nothing add nothing.
        await Task.yield()
        try await Task.sleep(for: .milliseconds(20))
        #expect(heard.sets.count == 2)
        #expect(c.hasChanges, "the batches were processed, not saved")
    }

    @Test func aBackgroundContextProcessesAtTheEndOfEachPerform() async throws {
        let container = try container()
        let bg = container.newBackgroundContext()
        let heard = try await bg.perform { context -> [ChangeSet] in
            nonisolated(unsafe) var heard: [ChangeSet] = []
            let token = context.observeChanges { heard.append($0) }
            let a = TestAnimal(context: context)
            a.commonName = "Tapir"
            try context.save()
            a.legs = 3
            token.cancel()
            return heard
        }
        #expect(heard.map(\.origin) == [.pending, .thisContext])
        let later = try await bg.perform { context -> [ChangeSet] in
            nonisolated(unsafe) var heard: [ChangeSet] = []
            let token = context.observeChanges { heard.append($0) }
            let a = try context.fetch(FetchRequest<TestAnimal>()).first!
            a.legs = 5
            return withExtendedLifetime(token) { heard }
        }
        #expect(later.isEmpty, "within the block nothing is processed")
        let afterwards = try await bg.perform { context -> Int in
            try context.fetch(FetchRequest<TestAnimal>()).first!.legs
        }
        #expect(afterwards == 5)
    }

    @Test func changesMadeBeforeAMergeAreHeardBeforeIt() async throws {
        let container = try container()
        let c = container.viewContext
        let animals = try saved(c)
        var heard: [ChangeSet] = []
        let token = c.observeChanges { heard.append($0) }
        let id = animals[1].objectID
        animals[0].legs = 1
        try await container.performBackgroundTask { bg in
            let other: TestAnimal = bg.object(with: id)
            other.habitat = "Coast"
            try bg.save()
        }
        #expect(await waitUntil { heard.contains { $0.origin == .otherContext } })
        let origins = heard.map(\.origin)
        #expect(origins.first == .pending)
        #expect(origins.filter { $0 == .pending }.count == 1)
        #expect(heard.first?.updated == [animals[0].objectID: ["legs"]])
        withExtendedLifetime(token) {}
    }
}
