import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioResults

/// Nested in the cache suite, so that no two tests set `ResultsCache.directory` at once.
extension ControllerCacheTests {
    /// A relaunch with a cache name draws its first screen from the cache file
    /// alone, loads the rest afterwards, and is never less valid than a fresh
    /// fetch: damaged files and other processes' changes fall back to one.
    @MainActor @Suite(.serialized) struct Relaunch {
        static let rows = 10_000  // three chunks of IDs
        let directory: StoreTemporaryDirectory
        let path: String

        init() throws {
            directory = try StoreTemporaryDirectory()
            path = directory.path("relaunch.sqlite")
            ResultsCache.directory = directory.url.appendingPathComponent("caches")
            let container = try PersistentContainer(schema: ResultsTestSchema.make(), path: path)
            container.viewContext.undoManager = nil
            var random = ResultsRandom(seed: 0x0D15_EA5E)
            for _ in 0..<Self.rows {
                let item = ResultsItem(context: container.viewContext)
                item.name = "item \(Int.random(in: 0..<1_000_000, using: &random))"
                item.group = Int.random(in: 0..<7, using: &random)
            }
            try container.viewContext.save()
        }

        func controller(_ context: ObjectContext, cache: String? = "Relaunch") -> FetchedResultsController<ResultsItem> {
            var request = FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.group), SortDescriptor(\.name)])
            request.fetchBatchSize = 20
            return FetchedResultsController(
                fetchRequest: request, managedObjectContext: context,
                sectionNameKeyPath: \ResultsItem.group, cacheName: cache)
        }

        /// The names in order, read afresh from the store.
        func fresh(_ context: ObjectContext) throws -> [[String]] {
            let plain = controller(context, cache: nil)
            try plain.performFetch()
            return (0..<(plain.sections?.count ?? 0)).map { plain.objects(inSection: $0).map(\.name) }
        }

        /// Writes the cache as the app's last launch did, then closes that launch.
        func launchOnce() throws {
            let container = try PersistentContainer(schema: ResultsTestSchema.make(), path: path)
            let first = controller(container.viewContext)
            try first.performFetch()
            #expect(FileManager.default.fileExists(atPath: ResultsCache.file("Relaunch").path))
        }

        /// A cache written by a launch, its intact bytes, and a container to
        /// relaunch on, for tests that damage the file; `test` names the seed.
        func cacheToDamage(_ test: String) throws -> (random: ResultsRandom, file: URL, intact: Data, container: PersistentContainer) {
            let random = ResultsRandom.fromEnvironment()
            print("ControllerCacheTests.Relaunch.\(test) seed: \(random.seed) (FOLIO_SEED replays)")
            try launchOnce()
            let file = ResultsCache.file("Relaunch")
            return (random, file, try Data(contentsOf: file), try PersistentContainer(schema: ResultsTestSchema.make(), path: path))
        }

        /// The app launched again on the store, its controller fetched with the cache.
        func relaunch() throws -> (PersistentContainer, FetchedResultsController<ResultsItem>) {
            try launchOnce()
            let container = try PersistentContainer(schema: ResultsTestSchema.make(), path: path)
            let relaunched = controller(container.viewContext)
            try relaunched.performFetch()
            return (container, relaunched)
        }

        @Test func aRelaunchDrawsItsFirstScreenFromTheFileAlone() throws {
            let (container, relaunched) = try relaunch()
            let context = container.viewContext
            #expect(relaunched.lastFetchUsedCache)
            let harness = ResultsTableHarness(controller: relaunched)  // draws the first screen
            #expect(relaunched.isReadingCachedOrder, "the first screen loaded the whole order")
            let expected = try fresh(context)
            #expect(relaunched.sections?.map(\.numberOfObjects) == expected.map(\.count))
            #expect(relaunched.objects(inSection: 0).prefix(30).map(\.name) == Array(expected[0].prefix(30)))
            // Anything beyond drawing loads the whole order, which then agrees with a fresh fetch.
            let snapshot = relaunched.snapshot()
            #expect(!relaunched.isReadingCachedOrder)
            #expect(snapshot.itemIdentifiers.map(\.count) == expected.map(\.count))
            #expect((0..<expected.count).map { relaunched.objects(inSection: $0).map(\.name) } == expected)
            #expect(harness.tableErrors.isEmpty)
            relaunched.checkInvariants()
        }

        @Test func theRestLoadsOffTheMainActor() async throws {
            let (container, relaunched) = try relaunch()
            #expect(relaunched.isReadingCachedOrder)
            #expect(await waitUntil(60) { !relaunched.isReadingCachedOrder })
            #expect(relaunched.lastFetchUsedCache)
            #expect(relaunched.cachedOrderLoadedOffMainActor == true)
            relaunched.checkInvariants()
            withExtendedLifetime(container) {}
        }

        @Test func aChangeAfterARelaunchIsReportedAgainstTheCachedOrder() throws {
            let (container, relaunched) = try relaunch()
            let context = container.viewContext
            let harness = ResultsTableHarness(controller: relaunched)
            #expect(relaunched.isReadingCachedOrder)
            let moved = relaunched.object(at: IndexPath(row: 3, section: 0))
            moved.group = 5
            let added = ResultsItem(context: context)
            added.name = "aaa first"
            added.group = 0
            context.delete(relaunched.object(at: IndexPath(row: 0, section: 1)))
            try context.save()
            #expect(!relaunched.isReadingCachedOrder)
            #expect(relaunched.cachedOrderLoadedOffMainActor == false, "the change waited for the load off the main actor")
            #expect(harness.tableErrors.isEmpty)
            #expect(harness.batches.count == 1)
            #expect(!FileManager.default.fileExists(atPath: ResultsCache.file("Relaunch").path))
            #expect((0..<7).map { relaunched.objects(inSection: $0).map(\.name) } == (try fresh(context)))
            #expect(harness.table.numberOfRowsInAllSections == Self.rows)
            relaunched.checkInvariants()
        }

        @Test func anotherProcesssChangesWhileClosedAreNeverHiddenByTheCache() async throws {
            let dir = try StoreTemporaryDirectory()
            let store = dir.path("zoo.sqlite")
            ResultsCache.directory = dir.url.appendingPathComponent("caches")
            let request = FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.habitat), SortDescriptor(\.commonName)])
            func launch() throws -> (names: [String], usedCache: Bool) {
                let container = try PersistentContainer(schema: StoreTestSchema.make(), path: store)
                let results = FetchedResultsController(
                    fetchRequest: request, managedObjectContext: container.viewContext,
                    sectionNameKeyPath: \TestAnimal.habitat, cacheName: "Zoo")
                try results.performFetch()
                let names = results.fetchedObjects?.map(\.commonName) ?? []
                #expect(names == (try container.viewContext.fetch(request).map(\.commonName)))
                return (names, results.lastFetchUsedCache)
            }
            do {
                let container = try PersistentContainer(schema: StoreTestSchema.make(), path: store)
                for i in 0..<30 {
                    let animal = TestAnimal(context: container.viewContext)
                    animal.commonName = "A\(i)"
                    animal.legs = 2 + i % 3
                }
                try container.viewContext.save()
            }
            let before = try launch()
            #expect(!before.usedCache)
            #expect(try launch().usedCache)
            // While no launch is open, another process inserts, updates and deletes by batch requests.
            let child = try StoreChildProcess(executable: StoreChildProcess.sibling("folio-store-worker"), arguments: ["batch", store])
            child.closeInput()
            #expect(await child.waitForLine { $0.hasPrefix("ran delete") } != nil, "\(child.lines.map(\.line))")
            await child.finish()
            let after = try launch()
            #expect(!after.usedCache, "the cache hid another process's changes")
            #expect(after.names != before.names)
            let again = try launch()
            #expect(again.usedCache && again.names == after.names)
        }

        /// A store deleted and made again at the same path, brought to the
        /// same history position with other rows, is another store: its
        /// relaunch fetches afresh rather than drawing the old store's order.
        @Test func aStoreMadeAgainAtTheSamePathIsNotTakenForTheOldOne() throws {
            try launchOnce()
            let (oldGeneration, oldIdentifier, oldNames) = try {
                let old = try PersistentContainer(schema: ResultsTestSchema.make(), path: path)
                return (try old.viewContext.storeGeneration(), try old.viewContext.storeIdentifier(), try fresh(old.viewContext))
            }()
            #expect(oldIdentifier != nil)
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }

            let remade = try PersistentContainer(schema: ResultsTestSchema.make(), path: path)
            remade.viewContext.undoManager = nil
            for i in 0..<Self.rows {
                let item = ResultsItem(context: remade.viewContext)
                item.name = "other \(Self.rows - i)"
                item.group = i % 7
            }
            try remade.viewContext.save()
            #expect(try remade.viewContext.storeGeneration() == oldGeneration, "the same position, so only the identity tells them apart")
            #expect(try remade.viewContext.storeIdentifier() != oldIdentifier)

            let relaunched = controller(remade.viewContext)
            try relaunched.performFetch()
            #expect(!relaunched.lastFetchUsedCache, "the old store's cache was taken for the new store's")
            let expected = try fresh(remade.viewContext)
            #expect(expected != oldNames)
            let shown = (0..<(relaunched.sections?.count ?? 0)).map { relaunched.objects(inSection: $0).map(\.name) }
            #expect(shown == expected, "the relaunch shows another order than the store's")
        }
    }
}
