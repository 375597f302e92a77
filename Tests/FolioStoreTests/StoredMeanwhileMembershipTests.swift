import FolioTestSupport
import Foundation
import Testing

@testable import FolioStore

/// A context's unsaved change to a to-many list, when another context's
/// save made the same change meanwhile, is no change any more: undoing it
/// here must then be saved as a change of its own. Before, the list kept
/// counting the member as added (or removed) here, and undoing it only
/// dropped that note: the save wrote nothing, and the other save's
/// membership stayed against what this context showed.
@MainActor
@Suite struct StoredMeanwhileMembershipTests {
    let container: PersistentContainer
    let view: ObjectContext
    let animal: TestAnimal
    let zoo: TestZoo
    let merges = LockedMerges()

    final class LockedMerges: @unchecked Sendable {  // touched on the main actor only (the view context's observer)
        var count = 0
    }

    init() throws {
        container = try PersistentContainer(schema: StoreTestSchema.make(), path: nil)
        view = container.viewContext
        zoo = TestZoo(context: view)
        zoo.name = "zoo"
        animal = TestAnimal(context: view)
        animal.commonName = "animal"
    }

    /// Another context links or unlinks the two, saves, and the view context merges it.
    func otherSave(linking: Bool) async throws {
        let merges = merges
        let before = merges.count
        let token = view.observeChanges { if $0.origin == .otherContext { merges.count += 1 } }
        defer { token.cancel() }
        let (animalID, zooID) = (animal.objectID, zoo.objectID)
        try await container.newBackgroundContext().perform { c in
            let a = c.object(with: animalID) as! TestAnimal, z = c.object(with: zooID) as! TestZoo
            if linking { a.zoos.insert(z) } else { a.zoos.remove(z) }
            try c.save()
        }
        #expect(await waitUntil { merges.count > before }, "the other save was merged")
    }

    /// The stored links of the animal, read by a fresh context.
    func storedZoos() async throws -> Set<String> {
        let id = animal.objectID
        return try await container.performBackgroundTask { c in Set((c.object(with: id) as! TestAnimal).zoos.map(\.name)) }
    }

    @Test func aMemberAddedHereAndStoredMeanwhileIsRemovedBySavingItsRemoval() async throws {
        try view.save()
        animal.zoos.insert(zoo)
        try await otherSave(linking: true)
        animal.zoos.remove(zoo)
        #expect(animal.zoos.isEmpty)
        try view.save()
        #expect(try await storedZoos().isEmpty, "the removal was saved")
    }

    @Test func aMemberRemovedHereAndRemovedMeanwhileIsStoredBySavingItsReturn() async throws {
        animal.zoos = [zoo]
        try view.save()
        animal.zoos.remove(zoo)
        try await otherSave(linking: false)
        animal.zoos.insert(zoo)
        #expect(animal.zoos.map(\.name) == ["zoo"])
        try view.save()
        #expect(try await storedZoos() == ["zoo"], "the return was saved")
    }
}
