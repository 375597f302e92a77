import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// A delegate whose methods all missed the protocol's signatures hears
/// nothing, silently, since every requirement has a default. The controller
/// names such a delegate after its first batch; one that implements a
/// change method is not named.
@MainActor @Suite(.serialized) struct ControllerDelegateNearMissTests {
    /// Folio's own earlier shape: the controller generic, the object typed.
    final class GenericShapeDelegate: FetchedResultsControllerDelegate {
        var heard = 0
        func controllerWillChangeContent<T>(_ controller: FetchedResultsController<T>) { heard += 1 }
        func controller<T>(
            _ controller: FetchedResultsController<T>, didChange anObject: T, at indexPath: IndexPath?,
            for type: ResultsChangeType, newIndexPath: IndexPath?
        ) { heard += 1 }
        func controllerDidChangeContent<T>(_ controller: FetchedResultsController<T>) { heard += 1 }
    }

    /// The entity's own types in the signature, in the class body (the compiler says nothing there).
    final class ConcreteShapeDelegate: FetchedResultsControllerDelegate {
        var heard = 0
        func controllerDidChangeContent(_ controller: FetchedResultsController<ResultsItem>) { heard += 1 }
        func controller(
            _ controller: AnyFetchedResultsController, didChange anObject: ResultsItem, at indexPath: IndexPath?,
            for type: ResultsChangeType, newIndexPath: IndexPath?
        ) { heard += 1 }
    }

    final class RightDelegate: FetchedResultsControllerDelegate {
        var heard = 0
        func controllerDidChangeContent(_ controller: AnyFetchedResultsController) { heard += 1 }
    }

    /// Runs two saves past a controller with `delegate` and returns what the controller said about delegates.
    func warnings(for delegate: any FetchedResultsControllerDelegate) throws -> [String] {
        let directory = try StoreTemporaryDirectory()
        let container = try PersistentContainer(schema: ResultsTestSchema.make(), path: directory.path("near-miss.sqlite"))
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.group), SortDescriptor(\.name)]),
            managedObjectContext: container.viewContext, sectionNameKeyPath: \ResultsItem.group, cacheName: nil)
        var said: [String] = []
        controller.unheardDelegateHandler = { said.append($0) }
        controller.delegate = delegate
        try controller.performFetch()
        for name in ["Ant", "Bee"] {
            let item = ResultsItem(context: container.viewContext)
            item.name = name
            try container.viewContext.save()
        }
        return said
    }

    @Test func aDelegateInTheGenericShapeIsNamedOnce() throws {
        let delegate = GenericShapeDelegate()
        let said = try warnings(for: delegate)
        #expect(delegate.heard == 0)
        #expect(said.count == 1, "\(said)")
        #expect(said.first?.contains("GenericShapeDelegate") == true, "\(said)")
        #expect(said.first?.contains("AnyFetchedResultsController") == true, "the message says what the signature takes: \(said)")
    }

    @Test func aDelegateWithTheEntitysTypesIsNamed() throws {
        let delegate = ConcreteShapeDelegate()
        let said = try warnings(for: delegate)
        #expect(delegate.heard == 0)
        #expect(said.count == 1, "\(said)")
        #expect(said.first?.contains("ConcreteShapeDelegate") == true, "\(said)")
    }

    @Test func aDelegateThatHearsIsNotNamed() throws {
        let delegate = RightDelegate()
        #expect(try warnings(for: delegate) == [])
        #expect(delegate.heard == 2)
    }
}
