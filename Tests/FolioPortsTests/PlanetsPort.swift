// The swipe-to-delete tutorial's planets screen, ported as a UIKit developer
// would: swipe, confirm with an action sheet, delete or cancel.
import FolioTable
import FolioTerminal

class PlanetsViewController: TableViewController, TableViewDataSource, TableViewDelegate {
    var planets = ["Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn", "Uranus", "Neptune"]
    var deletePlanetIndexPath: IndexPath? = nil

    override func viewDidLoad() {
        super.viewDidLoad()
        tableView.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        tableView.dataSource = self
        tableView.delegate = self
    }

    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        return planets.count
    }

    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
        cell.textLabel?.text = planets[indexPath.row]
        return cell
    }

    func tableView(_ tableView: TableView, commit editingStyle: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
        if editingStyle == .delete {
            deletePlanetIndexPath = indexPath
            let planetToDelete = planets[indexPath.row]
            confirmDelete(planet: planetToDelete)
        }
    }

    func confirmDelete(planet: String) {
        let alert = AlertController(
            title: "Delete Planet", message: "Are you sure you want to permanently delete \(planet)?", preferredStyle: .actionSheet)

        let DeleteAction = AlertAction(title: "Delete", style: .destructive, handler: handleDeletePlanet)
        let CancelAction = AlertAction(title: "Cancel", style: .cancel, handler: cancelDeletePlanet)

        alert.addAction(DeleteAction)
        alert.addAction(CancelAction)

        // Support display in iPad
        alert.popoverPresentationController?.sourceView = self.view
        alert.popoverPresentationController?.sourceRect = CGRect(
            x: self.view.bounds.size.width / 2.0, y: self.view.bounds.size.height / 2.0, width: 1.0, height: 1.0)

        self.present(alert, animated: true, completion: nil)
    }

    func handleDeletePlanet(alertAction: AlertAction!) {
        if let indexPath = deletePlanetIndexPath {
            tableView.beginUpdates()

            planets.remove(at: indexPath.row)

            // Note that indexPath is wrapped in an array:  [indexPath]
            tableView.deleteRows(at: [indexPath], with: .automatic)

            deletePlanetIndexPath = nil

            tableView.endUpdates()
        }
    }

    func cancelDeletePlanet(alertAction: AlertAction!) {
        deletePlanetIndexPath = nil
    }
}
