import FolioTable
import FolioTableTestSupport
import Testing

@testable import FolioTerminal

/// A searchable list of names: `searchTextDidChange` narrows it.
@MainActor
private final class NamesFixture: TableViewController, TableViewDataSource {
    let all = ["Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn", "Uranus", "Neptune"]
    var shown: [String]
    var searches: [String] = []

    init(searchable: Bool = true) {
        shown = all
        super.init(title: "Names")
        tableView.register(TableViewCell.self, forCellReuseIdentifier: "Name")
        tableView.dataSource = self
        isSearchable = searchable
    }

    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { shown.count }
    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Name", for: indexPath)
        cell.textLabel?.text = shown[indexPath.row]
        return cell
    }

    override func searchTextDidChange(_ text: String) {
        searches.append(text)
        shown = text.isEmpty ? all : all.filter { $0.lowercased().contains(text.lowercased()) }
        tableView.reloadData()
    }
}

@Suite("Search: / opens the field, each key narrows, Enter keeps, Esc clears")
@MainActor
struct TableSearchTests {
    func text(_ screen: Screen) -> String { (0..<screen.height).map(screen.line).joined(separator: "\n") }

    @Test("Each keystroke reaches searchTextDidChange; q and ? are typed, not commands")
    func typingNarrows() {
        let fixture = NamesFixture()
        let (app, driver) = Application.recording(NavigationController(root: fixture), columns: 48, rows: 14)
        app.send("/")
        #expect(fixture.isEditingText)
        #expect(driver.screen.line(2).hasPrefix(" / "), "\(driver.screen.line(2))")
        app.send("u")
        app.send("r")
        #expect(fixture.searches == ["u", "ur"])
        #expect(fixture.shown == ["Mercury", "Saturn", "Uranus"])
        app.send("q ?")
        #expect(app.isRunning && !app.isShowingHelp)
        #expect(fixture.searchText == "urq?")
        app.send("Backspace Backspace")
        #expect(fixture.searchText == "ur")
        #expect(app.keyHints.map(\.keys).contains("Enter") && !app.keyHints.map(\.keys).contains("q"))
    }

    @Test("Enter keeps the filter, shown above the list; Esc on the list clears it; Esc while typing clears too")
    func keepAndClear() {
        let fixture = NamesFixture()
        let (app, driver) = Application.recording(NavigationController(root: fixture), columns: 48, rows: 14)
        app.send("/ 'ne' Enter")
        #expect(!fixture.isEditingText && fixture.searchText == "ne")
        #expect(driver.screen.line(2).contains("Filter: ne"), "\(driver.screen.line(2))")
        #expect(fixture.shown == ["Neptune"])
        #expect(driver.screen.line(3).hasPrefix("▸ Neptune"), "the table starts below the filter line")
        #expect(app.keyHints.contains(KeyHint("Esc", "clear filter")))
        app.send("Esc")
        #expect(fixture.searchText == "" && fixture.shown == fixture.all)
        #expect(!text(driver.screen).contains("Filter:"))
        app.send("/ 'x' Esc")
        #expect(fixture.searches.last == "" && fixture.shown == fixture.all && !fixture.isEditingText)
    }

    @Test("Keys read together narrow once, and a key for the list after them acts on the narrowed rows")
    func burstsNarrowOnce() {
        let fixture = NamesFixture()
        let (app, _) = Application.recording(NavigationController(root: fixture), columns: 48, rows: 14)
        app.send("/")
        for key in [Key(.character("u")), Key(.character("r")), Key(.enter)] { app.handle(.key(key)) }
        #expect(fixture.searches.isEmpty, "nothing narrowed before a frame or a key for the list")
        app.handle(.key(Key(.character("j"))))
        #expect(fixture.searches == ["ur"], "narrowed once, before j")
        #expect(fixture.shown == ["Mercury", "Saturn", "Uranus"])
        app.receive(Array("/x".utf8))
        #expect(fixture.searches == ["ur", "urx"], "a frame narrows too")
    }

    @Test("A search that matches nothing says so; / reopens the kept filter")
    func noResults() {
        let fixture = NamesFixture()
        let (app, driver) = Application.recording(NavigationController(root: fixture), columns: 48, rows: 14)
        app.send("/ 'zz' Enter")
        #expect(text(driver.screen).contains("No results for “zz”"))
        app.send("/ Backspace")
        #expect(fixture.searchText == "z" && fixture.isEditingText)
    }

    @Test("A table that is not searchable ignores /")
    func notSearchable() {
        let fixture = NamesFixture(searchable: false)
        let (app, _) = Application.recording(NavigationController(root: fixture), columns: 48, rows: 14)
        app.send("/ j")
        #expect(!fixture.isEditingText && fixture.searches.isEmpty)
        #expect(fixture.tableView.highlightedIndexPath == IndexPath(row: 1, section: 0))
        #expect(!app.keyHints.map(\.keys).contains("/"))
    }
}
