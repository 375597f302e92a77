import FolioStore
import FolioResults
import FolioTable

/// A fetched results controller wired to a FolioTable table view the way an
/// app wires it (UIKit's classic pattern): the delegate opens a batch, turns
/// each reported change into the table call, and ends the batch; the data
/// source answers from the controller. Refused batches are kept in
/// `tableErrors`; every batch is also kept as a change set.
///
///     let harness = ResultsTableHarness(controller: controller)
///     try context.save()
///     #expect(harness.tableErrors.isEmpty)

@MainActor
public final class ResultsTableHarness<Entity: ManagedObject>: TableViewDataSource {
    /// The controller feeding the table.
    public let controller: FetchedResultsController<Entity>
    /// The table.
    public let table: TableView
    /// Batches the table refused, with UIKit's message.
    public private(set) var tableErrors: [TableUpdateError] = []
    /// Every completed batch, as reported.
    public private(set) var batches: [ResultsChangeSet<ObjectID, String>] = []
    private let relay: ResultsTableRelay<Entity>
    var pending = ResultsChangeSet<ObjectID, String>()

    /// Wires `controller` to a new, loaded table; the controller must have fetched.
    public init(controller: FetchedResultsController<Entity>) {
        self.controller = controller
        table = TableView(viewportHeight: 12)
        table.register(forCellReuseIdentifier: "Cell") { TableViewCell(style: .default, reuseIdentifier: $0) }
        relay = ResultsTableRelay()
        relay.harness = self
        controller.delegate = relay
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
        cell.textLabel.text = controller.object(at: indexPath).objectID.description
        return cell
    }

    func begin() {
        pending = ResultsChangeSet()
        table.beginUpdates()
    }

    func section(_ index: Int, name: String, type: ResultsChangeType) {
        pending.sectionChanges.append(SectionChange(type: type, index: index, section: name))
        do {
            switch type {
            case .insert: try table.insertSections([index])
            case .delete: try table.deleteSections([index])
            default: break
            }
        } catch { tableErrors.append(error) }
    }

    func object(_ id: ObjectID, at old: IndexPath?, type: ResultsChangeType, new: IndexPath?) {
        pending.objectChanges.append(ObjectChange(type: type, id: id, indexPath: old, newIndexPath: new))
        do {
            switch type {
            case .insert: try table.insertRows(at: [new!])
            case .delete: try table.deleteRows(at: [old!])
            case .move: try table.moveRow(at: old!, to: new!)
            case .update: try table.reloadRows(at: [old!])
            }
        } catch { tableErrors.append(error) }
    }

    func end() {
        batches.append(pending)
        do { try table.endUpdates() } catch { tableErrors.append(error) }
    }
}

/// The controller's delegate for a ``ResultsTableHarness``; the controller
/// reports on the main actor here, as the view context does.
final class ResultsTableRelay<Entity: ManagedObject>: FetchedResultsControllerDelegate {
    weak var harness: ResultsTableHarness<Entity>?

    func controllerWillChangeContent(_ controller: FetchedResultsController<Entity>) {
        let harness = self.harness
        MainActor.assumeIsolated { harness?.begin() }
    }

    func controller(_ controller: FetchedResultsController<Entity>, didChange section: FetchedResultsSection<Entity>,
                    atSectionIndex sectionIndex: Int, for type: ResultsChangeType) {
        let name = section.name
        let harness = self.harness
        MainActor.assumeIsolated { harness?.section(sectionIndex, name: name, type: type) }
    }

    func controller(_ controller: FetchedResultsController<Entity>, didChange object: Entity, at indexPath: IndexPath?,
                    for type: ResultsChangeType, newIndexPath: IndexPath?) {
        let id = object.objectID
        let harness = self.harness
        MainActor.assumeIsolated { harness?.object(id, at: indexPath, type: type, new: newIndexPath) }
    }

    func controllerDidChangeContent(_ controller: FetchedResultsController<Entity>) {
        let harness = self.harness
        MainActor.assumeIsolated { harness?.end() }
    }
}
