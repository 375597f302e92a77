import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// A background context is an `ObjectContext` (as Core Data's private-queue
/// context is), used through `perform` and `performAndWait`; the view
/// context takes the same calls on the main actor. Work reaches the queue
/// only through them: direct use of a background context traps.
@MainActor
@Suite struct BackgroundContextTests {
    @Test func aBackgroundContextIsAnObjectContextUsedThroughPerform() async throws {
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: nil)
        let background = container.newBackgroundContext()
        let asContext: ObjectContext = background
        let id = try await asContext.perform { context -> ObjectID in
            let bat = TestAnimal(context: context)
            bat.commonName = "Bat"
            try context.save()
            return bat.objectID
        }
        // performAndWait, nested in a perform of the same context, runs at once instead of waiting for itself.
        let names = try await background.perform { context in
            try context.performAndWait { inner in
                try inner.fetch(FetchRequest<TestAnimal>()).map(\.commonName)
            }
        }
        #expect(names == ["Bat"])
        let count = try background.performAndWait { try $0.count(for: FetchRequest<TestAnimal>()) }
        #expect(count == 1)
        // The view context takes the same calls, on the main actor.
        let viewName = try await container.viewContext.perform { context in
            (try context.existingObject(with: id) as? TestAnimal)?.commonName
        }
        #expect(viewName == "Bat")
        #expect(try container.viewContext.performAndWait { try $0.count(for: FetchRequest<TestAnimal>()) } == 1)
    }

    @Test func usingABackgroundContextOutsidePerformTraps() async {
        await #expect(processExitsWith: .failure) {
            try await MainActor.run {
                let container = try PersistentContainer(schema: StoreTestSchema.make(), path: nil)
                let background = container.newBackgroundContext()
                _ = try background.count(for: FetchRequest<TestAnimal>())  // not on its queue
            }
        }
        await #expect(processExitsWith: .failure) {
            try await MainActor.run {
                let container = try PersistentContainer(schema: StoreTestSchema.make(), path: nil)
                TestAnimal(context: container.newBackgroundContext()).commonName = "Bat"
            }
        }
    }
}
