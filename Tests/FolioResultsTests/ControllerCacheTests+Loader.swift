import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioResults

/// The cached-order loader on its own, over a real cache file, and the
/// controller's load of it as an explicit step.
extension ControllerCacheTests.Relaunch {
    /// The cache file of the last launch, opened as a relaunch opens it.
    func openedOrder(_ context: ObjectContext) throws -> CachedOrder {
        let request = controller(context).fetchRequest
        let plan = try KeyPlan(request: request, sectionKeyPath: \ResultsItem.group, context: context)
        return try #require(ResultsCache.open(name: "Relaunch", plan: plan, context: context))
    }

    @Test func readingTheResultsLoadsNoCachedOrder() throws {
        let (container, relaunched) = try relaunch()
        #expect(relaunched.isReadingCachedOrder)
        // Before the load was explicit, reading the engine loaded the whole order from the file.
        #expect(relaunched.engine.count == 0)
        #expect(relaunched.isReadingCachedOrder, "reading the results loaded the cached order")
        relaunched.loadWholeOrder()
        #expect(!relaunched.isReadingCachedOrder && relaunched.cachedOrderLoadedOffMainActor == false)
        #expect(relaunched.engine.count == Self.rows)
        relaunched.checkInvariants()
        withExtendedLifetime(container) {}
    }

    @Test func theLoaderLoadsTheOrderShownAtOnce() throws {
        try launchOnce()
        let container = try PersistentContainer(schema: ResultsTestSchema.make(), path: path)
        let order = try openedOrder(container.viewContext)
        let loader = CachedOrderLoader()
        #expect(loader.loadNow() == nil && loader.loadedApart == nil)
        loader.show(order)
        #expect(loader.order === order)
        let (given, loaded) = try #require(loader.loadNow())
        #expect(given === order && loader.order == nil && loader.loadedApart == false)
        let engine = try #require(loaded).engine
        engine.checkInvariants()
        #expect(engine.numberOfSections == order.numberOfSections)
        for (index, section) in order.sections.enumerated() {
            #expect(engine.section(at: index) == section.key)
            #expect(engine.snapshot()[index].ids == order.ids(inSection: index, rows: 0..<section.count))
        }
        #expect(loader.loadNow() == nil, "an order is loaded once")
    }

    @Test func theLoaderLoadsApartAndHandsTheOrderOver() async throws {
        try launchOnce()
        let container = try PersistentContainer(schema: ResultsTestSchema.make(), path: path)
        let order = try openedOrder(container.viewContext)
        let loader = CachedOrderLoader()
        loader.show(order)
        var handed: (order: CachedOrder, loaded: LoadedOrder?)?
        loader.loadApart { handed = ($0, $1) }
        #expect(loader.order === order, "the order stays shown while it loads")
        #expect(await waitUntil(60) { handed != nil })
        #expect(handed?.order === order && loader.order == nil && loader.loadedApart == true)
        #expect(handed?.loaded?.engine.count == Self.rows)
    }
}
