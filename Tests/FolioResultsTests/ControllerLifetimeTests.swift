import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// A controller holds nothing that holds it back: when its owner lets go,
/// the controller, its context and the container go too, sections read or not.
@MainActor @Suite struct ControllerLifetimeTests {
    @Test func aControllerWhoseSectionsWereReadIsReleasedWithItsContextAndContainer() throws {
        let directory = try StoreTemporaryDirectory()
        let path = directory.path("lifetime.sqlite")
        weak var weakController: FetchedResultsController<ResultsItem>?
        weak var weakContext: ObjectContext?
        weak var weakContainer: PersistentContainer?
        weak var weakDelegate: ResultsRecordingDelegate<ResultsItem>?
        do {
            let container = try PersistentContainer(schema: ResultsTestSchema.make(), path: path)
            let item = ResultsItem(context: container.viewContext)
            item.name = "Ant"
            try container.viewContext.save()
            let controller = FetchedResultsController(
                fetchRequest: FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.group), SortDescriptor(\.name)]),
                managedObjectContext: container.viewContext, sectionNameKeyPath: \ResultsItem.group, cacheName: nil)
            let delegate = ResultsRecordingDelegate<ResultsItem>(describe: \.name)
            controller.delegate = delegate
            controller.snapshotHandler = { _ in }
            try controller.performFetch()
            #expect(controller.sections?.first?.objects?.count == 1)  // builds and keeps the section cache
            _ = controller.changeSets()
            weakController = controller
            weakContext = container.viewContext
            weakContainer = container
            weakDelegate = delegate
        }
        #expect(weakController == nil, "the controller outlived its owner")
        #expect(weakDelegate == nil, "the delegate outlived its owner")
        #expect(weakContext == nil, "the context outlived its owner")
        #expect(weakContainer == nil, "the container outlived its owner")
        #expect(StoreFileDescriptors.open(on: path) == [], "a connection outlived its container")
    }
}
