// The UITableViewDataSource cheat sheet, ported: the methods a table always
// needs, over an array, wired in code where a storyboard would wire them.
import FolioTable
import FolioTerminal

class CheatSheetViewController: TableViewController, TableViewDataSource, TableViewDelegate {
    var dataSourceArray = ["Mercury", "Venus", "Earth"]

    init() {
        super.init()
        tableView.register(TableViewCell.self, forCellReuseIdentifier: "BasicCell")
        tableView.dataSource = self
        tableView.delegate = self
    }

    func numberOfSections(in tableView: TableView) -> Int {
        return 1  // This was put in mainly for my own unit testing
    }

    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        return dataSourceArray.count
    }

    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "BasicCell")!
        cell.textLabel?.text = dataSourceArray[indexPath.row]
        return cell
    }
}
