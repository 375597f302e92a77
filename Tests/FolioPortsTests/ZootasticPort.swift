// The Zootastic tutorial's main screen, ported as a Core Data and UIKit
// developer would: type names renamed (NSManagedObject → ManagedObject,
// UITableView → TableView, …) and nothing else but the entity declarations
// and what PORTS.md counts. No typealiases, no `try!`.
import FolioResults
import FolioStore
import FolioTable
import FolioTerminal

final class Zoo: ManagedObject {
    @Managed var name: String
    @Managed var location: String
    @Managed var animals: Set<Animal>

    override class var entity: EntityDescription {
        EntityDescription(
            Zoo.self,
            properties: [
                .attribute(\Zoo.name, "name", defaultValue: ""),
                .attribute(\Zoo.location, "location", defaultValue: ""),
                .toMany(\Zoo.animals, "animals", inverse: \Animal.zoos),
            ])
    }
}

final class Classification: ManagedObject {
    @Managed var scientificClassification: String
    @Managed var order: String
    @Managed var family: String
    @Managed var animals: Set<Animal>

    override class var entity: EntityDescription {
        EntityDescription(
            Classification.self,
            properties: [
                .attribute(\Classification.scientificClassification, "scientificClassification", defaultValue: ""),
                .attribute(\Classification.order, "order", defaultValue: ""),
                .attribute(\Classification.family, "family", defaultValue: ""),
                .toMany(\Classification.animals, "animals", inverse: \Animal.classification, deleteRule: .deny),
            ])
    }
}

final class Animal: ManagedObject {
    @Managed var commonName: String
    @Managed var habitat: String
    @Managed var classification: Classification?
    @Managed var zoos: Set<Zoo>

    override class var entity: EntityDescription {
        EntityDescription(
            Animal.self,
            properties: [
                .attribute(\Animal.commonName, "commonName", defaultValue: ""),
                .attribute(\Animal.habitat, "habitat", defaultValue: ""),
                .toOne(\Animal.classification, "classification", inverse: \Classification.animals),
                .toMany(\Animal.zoos, "zoos", inverse: \Zoo.animals),
            ])
    }
}

public class MainViewController: TableViewController, TableViewDataSource, TableViewDelegate, FetchedResultsControllerDelegate {
    public var context: ObjectContext!

    lazy var fetchedResultsController: FetchedResultsController<Animal> = {
        var animalsFetchRequest = FetchRequest<Animal>(entityName: "Animal")
        let primarySortDescriptor = SortDescriptor<Animal>(key: "classification.order", ascending: true)
        let secondarySortDescriptor = SortDescriptor<Animal>(key: "commonName", ascending: true)
        animalsFetchRequest.sortDescriptors = [primarySortDescriptor, secondarySortDescriptor]

        let frc = FetchedResultsController(
            fetchRequest: animalsFetchRequest,
            managedObjectContext: self.context,
            sectionNameKeyPath: "classification.order",
            cacheName: nil)
        frc.delegate = self
        return frc
    }()

    override public func viewDidLoad() {
        super.viewDidLoad()
        tableView.register(forCellReuseIdentifier: "Cell") { TableViewCell(style: .subtitle, reuseIdentifier: $0) }
        tableView.dataSource = self
        tableView.delegate = self
        do {
            try fetchedResultsController.performFetch()
        } catch {
            print("An error occurred")
        }
    }

    // MARK: TableView Data Source

    public func numberOfSections(in tableView: TableView) -> Int {
        if let sections = fetchedResultsController.sections {
            return sections.count
        }
        return 0
    }

    public func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        if let sections = fetchedResultsController.sections {
            let currentSection = sections[section]
            return currentSection.numberOfObjects
        }
        return 0
    }

    public func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
        let animal = fetchedResultsController.object(at: indexPath)
        cell.textLabel?.text = animal.commonName
        cell.detailTextLabel?.text = animal.habitat
        return cell
    }

    public func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? {
        if let sections = fetchedResultsController.sections {
            let currentSection = sections[section]
            return currentSection.name
        }
        return nil
    }

    // MARK: FetchedResultsControllerDelegate methods

    public func controllerWillChangeContent(_ controller: AnyFetchedResultsController) {
        self.tableView.beginUpdates()
    }

    public func controller(
        _ controller: AnyFetchedResultsController,
        didChange anObject: Any,
        at indexPath: IndexPath?,
        for type: ResultsChangeType,
        newIndexPath: IndexPath?
    ) {
        switch type {
        case .insert:
            if let insertIndexPath = newIndexPath {
                self.tableView.insertRows(at: [insertIndexPath], with: .fade)
            }
        case .delete:
            if let deleteIndexPath = indexPath {
                self.tableView.deleteRows(at: [deleteIndexPath], with: .fade)
            }
        case .update:
            if let updateIndexPath = indexPath {
                let cell = self.tableView.cellForRow(at: updateIndexPath)
                let animal = anObject as? Animal
                cell?.textLabel?.text = animal?.commonName
                cell?.detailTextLabel?.text = animal?.habitat
            }
        case .move:
            if let deleteIndexPath = indexPath {
                self.tableView.deleteRows(at: [deleteIndexPath], with: .fade)
            }
            if let insertIndexPath = newIndexPath {
                self.tableView.insertRows(at: [insertIndexPath], with: .fade)
            }
        }
    }

    public func controller(
        _ controller: AnyFetchedResultsController,
        didChange sectionInfo: FetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int,
        for type: ResultsChangeType
    ) {
        switch type {
        case .insert:
            let sectionIndexSet = IndexSet(integer: sectionIndex)
            self.tableView.insertSections(sectionIndexSet, with: .fade)
        case .delete:
            let sectionIndexSet = IndexSet(integer: sectionIndex)
            self.tableView.deleteSections(sectionIndexSet, with: .fade)
        default:
            break
        }
    }

    public func controller(_ controller: AnyFetchedResultsController, sectionIndexTitleForSectionName sectionName: String) -> String? {
        return sectionName
    }

    public func controllerDidChangeContent(_ controller: AnyFetchedResultsController) {
        self.tableView.endUpdates()
    }
}
