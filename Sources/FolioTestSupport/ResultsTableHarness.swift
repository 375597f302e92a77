import FolioResults
import FolioStore
import FolioTable

/// A fetched results controller wired to a FolioTable table view the way an
/// app wires it (UIKit's classic pattern): each batch opens a table batch,
/// every reported change becomes the table call, and the batch ends; the
/// data source answers from the controller. Refused batches are kept in
/// `tableErrors`; every batch is also kept as a change set.
///
///     let harness = ResultsTableHarness(controller: controller)
///     try context.save()
///     #expect(harness.tableErrors.isEmpty)
@MainActor
public final class ResultsTableHarness<Entity: ManagedObject>: TableViewDataSource, FetchedResultsControllerDelegate {
    /// The controller feeding the table.
    public let controller: FetchedResultsController<Entity>
    /// The table.
    public let table: TableView
    /// Batches the table refused, with UIKit's message.
    public private(set) var tableErrors: [TableUpdateError] = []
    /// Every completed batch, as reported.
    public private(set) var batches: [FetchedResultsChanges] = []
    /// Called after each batch reached the table, for checks made at every
    /// processed batch (the context's state is the batch's end state then).
    public var afterEachBatch: ((FetchedResultsChanges) -> Void)?

    /// Wires `controller` to a new, loaded table; the controller must have fetched.
    public init(controller: FetchedResultsController<Entity>) {
        self.controller = controller
        table = TableView(viewportHeight: 12)
        table.register(forCellReuseIdentifier: "Cell") { TableViewCell(style: .default, reuseIdentifier: $0) }
        controller.delegate = self
        table.dataSource = self
        table.reloadData()
    }

    /// Forgets recorded batches.
    public func reset() { batches = [] }

    /// The controller's section count.
    public func numberOfSections(in tableView: TableView) -> Int { controller.sections?.count ?? 0 }

    /// The controller's row count for a section.
    public func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        controller.sections?[section].numberOfObjects ?? 0
    }

    /// A cell showing the object's ID.
    public func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
        cell.textLabel?.text = controller.object(at: indexPath).objectID.description
        return cell
    }

    /// Records the batch and applies it to the table, call by call.
    public func controller(_ controller: AnyFetchedResultsController, didChangeContentWith changes: FetchedResultsChanges) {
        batches.append(changes)
        table.beginUpdates()
        for change in changes.sectionChanges {
            switch change.type {
            case .insert: table.insertSections([change.index])
            case .delete: table.deleteSections([change.index])
            default: break
            }
        }
        for change in changes.objectChanges {
            switch change.type {
            case .insert: table.insertRows(at: [change.newIndexPath!])
            case .delete: table.deleteRows(at: [change.indexPath!])
            case .move: table.moveRow(at: change.indexPath!, to: change.newIndexPath!)
            case .update: table.reloadRows(at: [change.indexPath!])
            }
        }
        do { try table.endCheckedUpdates() } catch { tableErrors.append(error) }
        afterEachBatch?(changes)
    }
}
