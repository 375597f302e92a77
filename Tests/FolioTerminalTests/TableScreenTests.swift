import FolioTable
import FolioTableTestSupport
import Testing

@testable import FolioTerminal

@Suite("Table screens driven by key scripts")
@MainActor
struct TableScreenTests {
    func makeApp(_ fixture: PlanetsFixture = PlanetsFixture(), columns: Int = 48, rows: Int = 16)
        -> (Application, PlanetsFixture, TerminalRecordingDriver)
    {
        let (app, driver) = Application.recording(NavigationController(root: fixture), columns: columns, rows: rows)
        return (app, fixture, driver)
    }

    /// Every frame's bytes must rebuild exactly that frame.
    func expectExactOutput(_ driver: TerminalRecordingDriver, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(driver.emulator.screen == driver.screen, sourceLocation: sourceLocation)
        #expect(driver.emulator.unknownSequences.isEmpty, sourceLocation: sourceLocation)
    }

    @Test("A table opens with its first row highlighted, headers, disclosure and bar buttons")
    func opening() {
        let (_, _, driver) = makeApp()
        Snapshot.assert(driver.screen, named: "planets-open")
        #expect(driver.screen.line(3).hasPrefix("▸ Mercury"))
        expectExactOutput(driver)
    }

    @Test("Down/j, Up/k, End/G, Home/g, PgDn move the highlight")
    func movement() {
        let (app, fixture, driver) = makeApp()
        app.send("j Down")
        #expect(fixture.tableView.highlightedIndexPath == IndexPath(row: 2, section: 0))
        app.send("k")
        #expect(fixture.tableView.highlightedIndexPath == IndexPath(row: 1, section: 0))
        app.send("G")
        #expect(fixture.tableView.highlightedIndexPath == IndexPath(row: 3, section: 1))
        app.send("g")
        #expect(fixture.tableView.highlightedIndexPath == IndexPath(row: 0, section: 0))
        app.send("End Home PgDn")
        #expect(fixture.tableView.highlightedIndexPath != IndexPath(row: 0, section: 0))
        expectExactOutput(driver)
    }

    @Test("Enter pushes the detail screen; the back button names the list; Esc pops")
    func pushAndPop() {
        let (app, fixture, driver) = makeApp()
        app.send("j Enter")
        #expect(fixture.log == ["select Venus"])
        Snapshot.assert(driver.screen, named: "planets-detail")
        #expect(driver.screen.line(0).hasPrefix("‹ Planets"))
        app.send("q")
        #expect(app.isRunning, "q does not quit from a pushed screen")
        app.send("Esc")
        #expect(fixture.navigationController?.viewControllers.count == 1)
        app.send("q")
        #expect(!app.isRunning)
    }

    @Test("Swipe: Left reveals actions with the nearest focused; Left again moves out; Right steps back and hides")
    func swipe() {
        let (app, fixture, driver) = makeApp()
        app.send("h")
        #expect(fixture.tableView.swipedIndexPath == IndexPath(row: 0, section: 0))
        #expect(fixture.tableView.focusedSwipeActionIndex == 1)  // "More", nearest the text
        Snapshot.assert(driver.screen, named: "planets-swiped")
        app.send("Left")
        #expect(fixture.tableView.focusedSwipeActionIndex == 0)  // "Delete"
        app.send("Right")
        #expect(fixture.tableView.focusedSwipeActionIndex == 1)
        app.send("l")
        #expect(fixture.tableView.swipedIndexPath == nil)
        app.send("h Esc")
        #expect(fixture.tableView.swipedIndexPath == nil)
        #expect(fixture.navigationController?.viewControllers.count == 1, "Esc hid the actions and did not pop")
        expectExactOutput(driver)
    }

    @Test("Swipe Delete opens a confirmation sheet with Cancel focused; Enter cancels, Up Enter deletes")
    func swipeDelete() {
        let (app, fixture, driver) = makeApp()
        app.send("j h h Enter")
        let sheet = try! #require(app.presentedAlert)
        #expect(sheet.title == "Delete Planet")
        #expect(sheet.message == "Are you sure you want to permanently delete Venus?")
        #expect(sheet.focusedTitle == "Cancel")
        Snapshot.assert(driver.screen, named: "planets-delete-sheet")
        app.send("Enter")
        #expect(app.presentedAlert == nil)
        #expect(fixture.log == ["cancel"])
        #expect(fixture.sections[0].planets.contains("Venus"))
        app.send("h h Enter Up Enter")
        #expect(fixture.log == ["cancel", "delete Venus"])
        #expect(!fixture.sections[0].planets.contains("Venus"))
        #expect(app.hudText == "Deleted")
        Snapshot.assert(driver.screen, named: "planets-after-delete")
        fixture.tableView.checkInvariants()
        expectExactOutput(driver)
    }

    @Test("d and Delete take the same path as the swipe's Delete; Esc cancels the sheet")
    func deleteKey() {
        let (app, fixture, _) = makeApp()
        app.send("d")
        #expect(app.presentedAlert?.message == "Are you sure you want to permanently delete Mercury?")
        app.send("Esc")
        #expect(app.presentedAlert == nil)
        #expect(fixture.log == ["cancel"])
        app.send("Del")
        #expect(app.presentedAlert != nil)
    }

    @Test("Edit mode: e shows delete markers and reorder handles; K/J and Shift-arrows reorder; d confirms")
    func editMode() {
        let (app, fixture, driver) = makeApp()
        app.send("e")
        #expect(fixture.tableView.isEditing)
        #expect(driver.screen.line(0).contains("[Done]"))
        Snapshot.assert(driver.screen, named: "planets-editing")
        app.send("J S-Down")
        #expect(fixture.sections[0].planets == ["Venus", "Earth", "Mercury", "Mars"])
        #expect(fixture.tableView.highlightedIndexPath == IndexPath(row: 2, section: 0))
        app.send("K")
        #expect(fixture.sections[0].planets == ["Venus", "Mercury", "Earth", "Mars"])
        app.send("d")
        #expect(fixture.tableView.deleteConfirmationIndexPath == IndexPath(row: 1, section: 0))
        Snapshot.assert(driver.screen, named: "planets-edit-confirm")
        app.send("Enter")
        #expect(fixture.sections[0].planets == ["Venus", "Earth", "Mars"])
        app.send("e")
        #expect(!fixture.tableView.isEditing)
        fixture.tableView.checkInvariants()
        expectExactOutput(driver)
    }

    @Test("+ and a press the add button; the new row appears")
    func addButton() {
        let (app, fixture, driver) = makeApp()
        app.send("+")
        #expect(fixture.sections[0].planets.first == "Vulcan")
        app.send("a")
        #expect(fixture.log == ["add", "add"])
        #expect(driver.screen.text.contains("Vulcan"))
    }

    @Test("An empty table shows its empty-state line")
    func emptyState() {
        let (_, _, driver) = makeApp(PlanetsFixture(sections: []))
        Snapshot.assert(driver.screen, named: "planets-empty")
        #expect(driver.screen.text.contains("No planets"))
    }

    @Test("? shows help with this screen's keys; any key closes it")
    func help() {
        let (app, _, driver) = makeApp(rows: 24)
        app.send("?")
        #expect(app.isShowingHelp)
        Snapshot.assert(driver.screen, named: "planets-help")
        for expected in ["swipe", "edit", "add", "quit"] {
            #expect(driver.screen.text.contains(expected), "help lists \(expected)")
        }
        app.send("j")
        #expect(!app.isShowingHelp)
        #expect(app.isRunning)
    }

    @Test("Mouse: click selects, a leftward drag swipes, the wheel scrolls, clicks press bar buttons")
    func mouse() {
        let (app, fixture, driver) = makeApp(columns: 48, rows: 8)
        app.send("drag:30,4")  // no press first: ignored
        #expect(fixture.tableView.swipedIndexPath == nil)
        app.send("press:30,4 drag:20,4 release:20,4")
        #expect(fixture.tableView.swipedIndexPath == IndexPath(row: 1, section: 0))
        app.send("click:5,5")  // a click elsewhere hides the actions
        #expect(fixture.tableView.swipedIndexPath == nil)
        app.send("wheeldown:5,4")
        #expect(fixture.tableView.topVisibleItem != .header(section: 0))
        app.send("wheelup:5,4 wheelup:5,4")
        #expect(fixture.tableView.topVisibleItem == .header(section: 0))
        app.send("click:5,4")
        #expect(fixture.log == ["select Venus"])
        let back = driver.screen.line(0)
        #expect(back.hasPrefix("‹ Planets"))
        app.send("click:1,0")
        #expect(fixture.navigationController?.viewControllers.count == 1)
        let editColumn = driver.screen.line(0).distance(of: "[Edit]")
        app.send("click:\(editColumn + 1),0")
        #expect(fixture.tableView.isEditing)
        expectExactOutput(driver)
    }

    @Test("Ctrl-C quits from anywhere")
    func controlC() {
        let (app, _, _) = makeApp()
        app.send("j Enter C-c")
        #expect(!app.isRunning)
    }
}

extension String {
    /// The display column where `needle` starts (0 when absent).
    func distance(of needle: String) -> Int {
        guard let range = range(of: needle) else { return 0 }
        return DisplayWidth.of(String(self[..<range.lowerBound]))
    }
}
