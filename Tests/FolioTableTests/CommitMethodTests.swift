import FolioTable
import FolioTableTestSupport
import Testing

/// UIKit offers swipe-to-delete to a data source that implements
/// `tableView(_:commit:forRowAt:)`, on the plain `UITableViewDataSource`:
/// here a plain `TableViewDataSource` that writes the method gets the swipe,
/// the delete confirmation in edit mode and the commit; one that does not
/// gets neither, and none of its code runs to find out.
@MainActor
struct CommitMethodTests {
    /// A plain data source over one section of strings; `log` records every call that reaches it.
    class Plain: CommitTestRows {
        var rows: [String]
        var log: [String] = []
        init(_ rows: [String]) { self.rows = rows }
        func tableView(_ tableView: TableView, canEditRowAt indexPath: IndexPath) -> Bool {
            log.append("canEdit \(indexPath.row)")
            return true
        }
    }

    /// Commits written in an extension, as many UIKit files arrange them.
    final class CommittingInAnExtension: CommitTestRows {
        var rows = ["a", "b"]
        var log: [String] = []
    }

    /// A subclass of a plain data source: its base class fixed that it commits
    /// nothing, so it says so by conforming to `TableViewEditingDataSource`.
    final class DeclaredOnASubclass: Plain, TableViewEditingDataSource {
        func tableView(_ tableView: TableView, commit editingStyle: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
            log.append("commit \(editingStyle) \(indexPath.row)")
            rows.remove(at: indexPath.row)
            tableView.deleteRows(at: [indexPath], with: .fade)
        }
    }

    func table(_ source: some TableViewDataSource) -> TableView {
        let table = TableView(viewportHeight: 10)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        table.dataSource = source
        table.reloadData()
        return table
    }

    let first = IndexPath(row: 0, section: 0)

    @Test func aPlainDataSourceThatWritesTheCommitMethodGetsTheSwipeAndTheCommit() {
        let source = WritesCommit(["Mercury", "Venus", "Earth"])
        let table = table(source)
        #expect(table.dataSourceCommitsEdits)
        #expect(table.revealTrailingSwipeActions(forRowAt: first))
        #expect(table.revealedSwipeActions.map(\.title) == ["Delete"])
        table.performFocusedSwipeAction()
        #expect(source.log.filter { $0.hasPrefix("commit") } == ["commit delete 0"])
        #expect(source.rows == ["Venus", "Earth"])
        #expect(table.numberOfRows(inSection: 0) == 2)
        #expect(!table.isSwipeEditing)

        // Edit mode: the delete control asks for confirmation, then commits.
        table.setEditing(true)
        #expect(table.userDidTapEditingControl(forRowAt: first) == .delete)
        #expect(table.deleteConfirmationIndexPath == first)
        table.userDidConfirmDeletion()
        #expect(source.rows == ["Earth"])
        table.checkInvariants()
    }

    @Test func aPlainDataSourceWithoutItGetsNoSwipeAndNoCommit() {
        let source = Plain(["Mercury", "Venus"])
        let table = table(source)
        source.log = []
        #expect(!table.dataSourceCommitsEdits)
        #expect(source.log.isEmpty)  // finding out ran none of its code
        #expect(!table.revealTrailingSwipeActions(forRowAt: first))
        #expect(table.revealedSwipeActions.isEmpty)
        #expect(!table.performFullSwipe(onRowAt: first))
        table.setEditing(true)
        #expect(table.userDidTapEditingControl(forRowAt: first) == .none)
        #expect(table.deleteConfirmationIndexPath == nil)
        #expect(source.rows == ["Mercury", "Venus"])
        #expect(table.numberOfRows(inSection: 0) == 2)
    }

    @Test func theMethodInAnExtensionOrDeclaredOnASubclassCommitsToo() {
        let inExtension = CommittingInAnExtension()
        let extensionTable = table(inExtension)
        #expect(extensionTable.revealTrailingSwipeActions(forRowAt: first))
        extensionTable.performFocusedSwipeAction()
        #expect(inExtension.log == ["commit delete 0"])
        #expect(inExtension.rows == ["b"])

        let subclass = DeclaredOnASubclass(["a", "b"])
        let subclassTable = table(subclass)
        #expect(subclassTable.revealTrailingSwipeActions(forRowAt: first))
        subclassTable.performFocusedSwipeAction()
        #expect(subclass.log.filter { $0.hasPrefix("commit") } == ["commit delete 0"])
        #expect(subclass.rows == ["b"])
    }

    /// Writes the method on a plain `TableViewDataSource`, as the tutorials do.
    final class WritesCommit: CommitTestRows {
        var rows: [String]
        var log: [String] = []
        init(_ rows: [String]) { self.rows = rows }
        func tableView(_ tableView: TableView, commit editingStyle: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
            log.append("commit \(editingStyle) \(indexPath.row)")
            if editingStyle == .delete {
                rows.remove(at: indexPath.row)
                tableView.deleteRows(at: [indexPath], with: .fade)
            }
        }
    }
}

/// A data source over `rows`, one section, cells from "Cell"; whether it
/// commits is left to each conforming class.
@MainActor
protocol CommitTestRows: TableViewDataSource {
    var rows: [String] { get }
}

extension CommitTestRows {
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { rows.count }
    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
        cell.textLabel?.text = rows[indexPath.row]
        return cell
    }
}

extension CommitMethodTests.CommittingInAnExtension {
    func tableView(_ tableView: TableView, commit editingStyle: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
        log.append("commit \(editingStyle) \(indexPath.row)")
        rows.remove(at: indexPath.row)
        tableView.deleteRows(at: [indexPath], with: .fade)
    }
}
