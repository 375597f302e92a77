import FolioLocking
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// A batch insert's new IDs are made for whoever hears them: every
/// observer and every other context gets all of them; with no one
/// listening the request still counts and returns them, and the context's
/// lists still learn of their new members.
@MainActor
@Suite struct BatchInsertHearingTests {
    let dir: StoreTemporaryDirectory
    let container: PersistentContainer
    var c: ObjectContext { container.viewContext }

    init() throws {
        dir = try StoreTemporaryDirectory()
        container = try PersistentContainer(schema: StoreTestSchema.make(), path: dir.path("hearing.sqlite"))
    }

    func insert(_ count: Int, classification: TestClassification? = nil) throws -> BatchResult {
        var next = 0
        var request = BatchInsertRequest<TestAnimal>(handler: { (values: inout BatchInsertValues<TestAnimal>) in
            guard next < count else { return true }
            values[\.commonName] = "A\(next)"
            if let classification { values[\.classification] = classification }
            next += 1
            return false
        })
        request.resultType = .objectIDs
        return try c.execute(request)
    }

    @Test func observersAndOtherContextsHearEveryNewID() async throws {
        var heard = Set<ObjectID>()
        let token = c.observeChanges { heard.formUnion($0.inserted) }
        let background = container.newBackgroundContext()
        let stream = background.performAndWait { context in context.changes() }
        let elsewhere = LockedValue(Set<ObjectID>())
        let listening = Task { for await changes in stream { elsewhere.withLock { $0.formUnion(changes.inserted) } } }
        defer { listening.cancel() }
        let result = try insert(1_000)
        #expect(result.count == 1_000 && Set(result.objectIDs).count == 1_000)
        #expect(heard == Set(result.objectIDs))
        #expect(await waitUntil { elsewhere.withLock { $0 } == Set(result.objectIDs) })
        withExtendedLifetime(token) {}
    }

    @Test func withNoOneListeningTheRequestStillCountsAndNamesItsObjects() async throws {
        let cats = TestClassification(context: c)
        cats.order = "Carnivora"
        cats.family = "Felidae"
        try c.save()
        #expect(cats.animals.isEmpty)  // the list is loaded, and empty
        let result = try insert(300, classification: cats)
        #expect(result.count == 300)
        #expect(result.objectIDs.map(\.rowID) == Array(result.objectIDs[0].rowID...result.objectIDs[0].rowID + 299))
        #expect(c.object(with: result.objectIDs[299], as: TestAnimal.self).commonName == "A299")
        #expect(try c.count(for: FetchRequest<TestAnimal>()) == 300)
        // The context's loaded list of the new rows' classification is read again.
        #expect(await waitUntil { cats.animals.count == 300 })
    }

    @Test func twoKeyPathsOfOneTypeEachSetTheirOwnAttribute() throws {
        let paths: [ReferenceWritableKeyPath<TestAnimal, String>] = [\.commonName, \.habitat]
        var next = 0
        try c.execute(
            BatchInsertRequest<TestAnimal>(handler: { (values: inout BatchInsertValues<TestAnimal>) in
                guard next < 4 else { return true }
                // In turn, so a key path found by identity is never taken for the other.
                values[paths[next % 2]] = "first \(next)"
                values[paths[(next + 1) % 2]] = "second \(next)"
                values[\.legs] = next
                next += 1
                return false
            }))
        let rows = try c.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.legs)])).map {
            "\($0.commonName)|\($0.habitat)|\($0.legs)"
        }
        #expect(rows == ["first 0|second 0|0", "second 1|first 1|1", "first 2|second 2|2", "second 3|first 3|3"])
    }
}
