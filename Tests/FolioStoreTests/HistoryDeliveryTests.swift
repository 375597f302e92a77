import Foundation
import Testing
import FolioStore
import FolioTestSupport

/// Every commit another connection makes reaches this container's observers,
/// in order and with its permanent IDs, whatever the poller's timing. The
/// poller runs every half millisecond here so that its reads and
/// acknowledgements overlap the other connection's commits.
@MainActor
@Suite struct HistoryDeliveryTests {
    /// Saves one animal named `name` in `container` and returns its ID.
    func insert(_ name: String, in container: PersistentContainer) throws -> ObjectID {
        let a = TestAnimal(context: container.viewContext)
        a.commonName = name
        try container.viewContext.save()
        return a.objectID
    }

    /// Collects the IDs inserted by other processes' saves, in the order heard.
    func listen(_ container: PersistentContainer) -> (ObservationToken, () -> [ObjectID]) {
        final class Heard { var ids: [ObjectID] = [] }
        let heard = Heard()
        let token = container.viewContext.observeChanges { changes in
            if changes.origin == .otherProcess { heard.ids += changes.inserted.sorted() }
        }
        return (token, { heard.ids })
    }

    /// The reported case: one container seeds a new file and checks for
    /// changes at once; it must then hear both saves of a second connection.
    @Test func aSeedingContainerHearsBothLaterSavesOfAnother() async throws {
        let dir = try StoreTemporaryDirectory()
        for round in 0..<50 {
            let path = dir.path("seeded-\(round).sqlite")
            let mine = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 0.0005)
            _ = try insert("Seed", in: mine)
            mine.checkForExternalChanges()
            let (token, heard) = listen(mine)
            let theirs = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
            let saved = [try insert("Tapir", in: theirs), try insert("Okapi", in: theirs)]
            let arrived = await waitUntil(1) { heard().count >= saved.count }
            #expect(arrived, "round \(round): heard \(heard()) of \(saved)")
            #expect(heard() == saved, "round \(round)")
            token.cancel()
            if !arrived { break }
        }
    }

    /// The same through a real second process: each round a new file is
    /// seeded here, and a child process opens it and saves twice at once.
    @Test func aSeedingContainerHearsBothSavesOfAnotherProcess() async throws {
        let worker = StoreChildProcess.sibling("folio-store-worker")
        let dir = try StoreTemporaryDirectory()
        for round in 0..<15 {
            let path = dir.path("process-\(round).sqlite")
            let mine = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 0.0005)
            _ = try insert("Seed", in: mine)
            mine.checkForExternalChanges()
            let (token, heard) = listen(mine)
            let child = try StoreChildProcess(executable: worker, arguments: ["insert", path, "Tapir", "Okapi"])
            let arrived = await waitUntil(3) { heard().count >= 2 }
            child.finish()
            let saved = child.lines.filter { $0.line.hasPrefix("saved ") }.map { String($0.line.dropFirst("saved ".count)) }
            #expect(arrived, "round \(round): heard \(heard()) of \(saved)")
            #expect(heard().map(\.description) == saved, "round \(round)")
            token.cancel()
            if !arrived { break }
        }
    }

    /// Pairs of saves, each pair's last one racing the poll that hears the
    /// first: every save is heard once, in order, soon.
    @Test func theLastOfEachPairOfSavesIsHeard() async throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("pairs.sqlite")
        let mine = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 0.0005)
        _ = try insert("Seed", in: mine)
        let (token, heard) = listen(mine)
        let theirs = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
        var saved: [ObjectID] = []
        var late = 0
        for round in 0..<100 {
            saved += [try insert("A\(round)", in: theirs), try insert("B\(round)", in: theirs)]
            if !(await waitUntil(1) { heard().count >= saved.count }) { late += 1 }
        }
        #expect(late == 0, "\(late) of 100 rounds did not hear their last save within a second")
        #expect(await waitUntil(10) { heard().count >= saved.count })
        #expect(heard() == saved)
        token.cancel()
    }
}
