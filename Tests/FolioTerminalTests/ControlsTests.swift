import FolioTable
import FolioTableTestSupport
import Testing

@testable import FolioTerminal

@Suite("Tab bars, text fields, alerts, HUD and colour-free drawing")
@MainActor
struct ControlsTests {
    @Test("Cell styles: subtitle, value1, value2, checkmark, detail button, custom lines, wide text")
    func cellStyles() {
        let (_, driver) = Application.recording(NavigationController(root: FormFixture()), columns: 44, rows: 18)
        Snapshot.assert(driver.screen, named: "cell-styles")
        #expect(driver.emulator.screen == driver.screen)
        driver.screen.checkInvariants()
    }

    @Test("Tab, Shift-Tab, digits and clicks switch tabs; keys go to the selected tab")
    func tabs() {
        let planets = PlanetsFixture()
        let form = FormFixture()
        let tabs = TabBarController(tabs: [NavigationController(root: planets), NavigationController(root: form)])
        let (app, driver) = Application.recording(tabs, columns: 48, rows: 16)
        Snapshot.assert(driver.screen, named: "tabs-first")
        app.send("Tab")
        #expect(tabs.selectedIndex == 1)
        Snapshot.assert(driver.screen, named: "tabs-second")
        app.send("1")
        #expect(tabs.selectedIndex == 0)
        app.send("S-Tab")
        #expect(tabs.selectedIndex == 1)
        app.send("2 j")
        #expect(form.tableView.highlightedIndexPath == IndexPath(row: 1, section: 0))
        #expect(planets.tableView.highlightedIndexPath == IndexPath(row: 0, section: 0))
        let tabRow = driver.screen.height - 2
        app.send("click:3,\(tabRow)")
        #expect(tabs.selectedIndex == 0)
        #expect(driver.emulator.screen == driver.screen)
    }

    @Test("Text fields edit only once selected; typing, cursor keys, Backspace; Enter keeps, Esc restores")
    func textField() {
        let form = FormFixture()
        let (app, driver) = Application.recording(NavigationController(root: form), columns: 44, rows: 12)
        app.send("x")  // not editing: typing does nothing
        #expect(form.name == "Zerg")
        #expect(!form.isEditingText)
        app.send("Enter")
        #expect(form.isEditingText)
        app.send("' Rush' q ?")  // q and ? are typed, not commands
        #expect(app.isRunning)
        #expect(!app.isShowingHelp)
        Snapshot.assert(driver.screen, named: "text-field-editing")
        app.send("Backspace Left Left Home Del End 'X' Enter")
        #expect(form.commits == ["erg RushqX"])
        #expect(form.name == "erg RushqX")
        app.send("Enter 'junk' paste:'a\nb' Esc")
        #expect(form.commits == ["erg RushqX"], "Esc ends without committing")
        #expect((form.tableView.cellForRow(at: IndexPath(row: 0, section: 0)) as? TextFieldCell)?.text == "erg RushqX")
        app.send("q")
        #expect(!app.isRunning)
    }

    @Test("The TextField model: editing keys and a paste that cannot smuggle controls")
    func textFieldModel() {
        var field = TextField(text: "ab", placeholder: "Name")
        #expect(field.handle(.key(Key(.character("x")))) == .ignored)
        field.beginEditing()
        field.handle(.key(Key(.left)))
        field.handle(.key(Key(.character("語"))))
        #expect(field.text == "a語b")
        #expect(field.cursor == 2)
        field.handle(.paste("\u{1B}[2J\ttab"))
        #expect(field.text == "a語[2J tabb")
        field.handle(.key(Key(.character("u"), modifiers: .control)))
        #expect(field.text == "b")
        #expect(field.handle(.key(Key(.escape))) == .ended(commit: false))
        #expect(field.text == "ab")
    }

    @Test("An alert: title, message, OK; Enter presses it; a lone button is focused")
    func alert() {
        let form = FormFixture()
        let (app, driver) = Application.recording(NavigationController(root: form), columns: 50, rows: 14)
        var pressed: [String] = []
        let alert = AlertController(title: "Race not selected", message: "Please select a race first", preferredStyle: .alert)
        alert.addAction(AlertAction(title: "OK") { _ in pressed.append("OK") })
        form.present(alert)
        app.render()
        Snapshot.assert(driver.screen, named: "alert")
        app.send("j")  // keys go to the alert, not the table
        #expect(form.tableView.highlightedIndexPath == IndexPath(row: 0, section: 0))
        app.send("Enter")
        #expect(pressed == ["OK"])
        #expect(app.presentedAlert == nil)
    }

    @Test("Alert focus: destructive confirmations open on Cancel; Tab and arrows wrap; clicks press")
    func alertFocus() {
        let sheet = AlertController(title: nil, message: nil, preferredStyle: .actionSheet)
        sheet.addAction(AlertAction(title: "Cancel", style: .cancel))
        sheet.addAction(AlertAction(title: "Delete", style: .destructive))
        sheet.addAction(AlertAction(title: "Archive"))
        #expect(sheet.displayedActions.map(\.title) == ["Delete", "Archive", "Cancel"])
        sheet.prepareFocus()
        #expect(sheet.focusedTitle == "Cancel")
        _ = sheet.handle(Key(.tab))
        #expect(sheet.focusedTitle == "Delete")
        _ = sheet.handle(Key(.up))
        #expect(sheet.focusedTitle == "Cancel")
        let plain = AlertController(title: "Saved", message: nil, preferredStyle: .alert)
        plain.addAction(AlertAction(title: "OK"))
        plain.addAction(AlertAction(title: "Undo"))
        plain.prepareFocus()
        #expect(plain.focusedTitle == "OK")

        let driver = TerminalRecordingDriver(columns: 40, rows: 12)
        let app = Application(root: NavigationController(root: PlanetsFixture()), driver: driver)
        var pressed: [String] = []
        let clickable = AlertController(title: "Pick", message: nil, preferredStyle: .alert)
        clickable.addAction(AlertAction(title: "First") { _ in pressed.append("First") })
        clickable.addAction(AlertAction(title: "Second") { _ in pressed.append("Second") })
        app.present(clickable)
        app.render()
        let row = (0..<driver.screen.height).first { driver.screen.line($0).contains("Second") }!
        app.send("click:20,\(row)")
        #expect(pressed == ["Second"])
    }

    @Test("The HUD shows and goes away by itself")
    func hud() async throws {
        let driver = TerminalRecordingDriver(columns: 40, rows: 12)
        let app = Application(root: NavigationController(root: FormFixture()), driver: driver)
        app.hudDuration = 0.05
        app.showHUD("Tagged")
        app.render()
        #expect(driver.screen.text.contains("✓ Tagged"))
        try await Task.sleep(for: .milliseconds(300))
        #expect(app.hudText == nil)
        app.render()
        #expect(!driver.screen.text.contains("Tagged"))
    }

    @Test("NO_COLOR: no colour is written, yet the highlight, focus and destructive action stay visible")
    func monochrome() {
        let driver = TerminalRecordingDriver(columns: 48, rows: 16, colors: false)
        let fixture = PlanetsFixture()
        let app = Application(root: NavigationController(root: fixture), driver: driver)
        app.send("h Left")
        let bytes = driver.writes.joined().map { $0 }
        let output = String(decoding: bytes, as: UTF8.self)
        let colourCodes = (30...49).map { ";\($0)" } + (90...107).map { ";\($0)" }
        for code in colourCodes {
            #expect(!output.contains(code + "m") && !output.contains(code + ";"), "colour code \(code) written")
        }
        #expect(output.contains("\u{1B}[0;1;7m[✕ Delete]"), "the focused action is in reverse video")
        #expect(driver.screen.text.contains("[✕ Delete]"))
        #expect(driver.screen.line(3).hasPrefix("▸ Mercury"))
    }

    @Test("Escape sequences in data are drawn visibly and never reach the terminal")
    func hostileData() {
        let fixture = PlanetsFixture(sections: [("Evil\u{1B}[2J", ["Home\u{1B}]0;owned\u{07}", "Bell\u{07}\u{9B}31m"])])
        let (_, driver) = Application.recording(NavigationController(root: fixture), columns: 48, rows: 10)
        #expect(driver.screen.text.contains("Home^[]0;owned^G"))
        #expect(driver.screen.text.contains("Evil^[[2J"))
        #expect(driver.screen.text.contains("Bell^G<9B>31m"))
        let bytes = driver.writes.joined().map { $0 }
        #expect(!bytes.contains(0x07), "no BEL reaches the terminal")
        #expect(!String(decoding: bytes, as: UTF8.self).contains("\u{1B}]"), "no OSC reaches the terminal")
        #expect(!String(decoding: bytes, as: UTF8.self).unicodeScalars.contains("\u{9B}"))
        #expect(driver.emulator.unknownSequences.isEmpty)
        #expect(driver.emulator.screen == driver.screen)
    }

    @Test("A resize redraws everything at the new size")
    func resize() {
        let (app, driver) = Application.recording(NavigationController(root: PlanetsFixture()), columns: 48, rows: 16)
        driver.size = TerminalSize(columns: 30, rows: 8)
        app.render()
        #expect(String(decoding: driver.writes.last!, as: UTF8.self).hasPrefix("\u{1B}[0m\u{1B}[H\u{1B}[2J"))
        #expect(driver.screen.width == 30)
        #expect(driver.emulator.screen == driver.screen)
        Snapshot.assert(driver.screen, named: "planets-small")
    }

    @Test("Setting the application's root shows another screen tree")
    func rootSwap() {
        let driver = TerminalRecordingDriver(columns: 40, rows: 10)
        let first = NavigationController(root: PlanetsFixture())
        let app = Application(root: first, driver: driver)
        let form = FormFixture()
        app.root = NavigationController(root: form)
        app.render()
        #expect(driver.screen.line(0).contains("Guide"))
        #expect(form.application === app)
        #expect(first.application == nil)
    }
}

/// A table with many rows, in sections, and a section index.
@MainActor
final class NumbersFixture: TableViewController, TableViewDataSource {
    let sections: Int
    let rowsPerSection: Int

    init(sections: Int, rowsPerSection: Int) {
        self.sections = sections
        self.rowsPerSection = rowsPerSection
        super.init(title: "Numbers")
        tableView.register(TableViewCell.self, forCellReuseIdentifier: "Row")
        tableView.dataSource = self
    }

    func numberOfSections(in tableView: TableView) -> Int { sections }
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { rowsPerSection }
    func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? { "Section \(section)" }
    func sectionIndexTitles(for tableView: TableView) -> [String]? {
        sections <= 26 ? (0..<sections).map { String(UnicodeScalar(UInt8(65 + $0))) } : nil
    }
    func tableView(_ tableView: TableView, sectionForSectionIndexTitle title: String, at index: Int) -> Int { index }

    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Row", for: indexPath)
        cell.textLabel?.text = "Row \(indexPath.section).\(indexPath.row)"
        return cell
    }
}

@Suite("Large tables and the section index")
@MainActor
struct LargeTableTests {
    @Test("A 1,000,000-row table draws only what is visible and moves by pages")
    func millionRows() {
        let fixture = NumbersFixture(sections: 1_000, rowsPerSection: 1_000)
        let (app, driver) = Application.recording(NavigationController(root: fixture), columns: 120, rows: 40)
        #expect(fixture.tableView.createdCellCount < 80)
        app.send("G")
        #expect(fixture.tableView.highlightedIndexPath == IndexPath(row: 999, section: 999))
        #expect(driver.screen.text.contains("Row 999.999"))
        app.send("PgUp k")
        #expect(fixture.tableView.createdCellCount < 200)
        #expect(driver.emulator.screen == driver.screen)
    }

    @Test("The section index strip is drawn at the right and a click jumps to its section")
    func sectionIndex() {
        let fixture = NumbersFixture(sections: 5, rowsPerSection: 6)
        let (app, driver) = Application.recording(NavigationController(root: fixture), columns: 40, rows: 14)
        Snapshot.assert(driver.screen, named: "section-index")
        app.send("click:39,5")  // "D"
        #expect(fixture.tableView.highlightedIndexPath == IndexPath(row: 0, section: 3))
        #expect(driver.screen.text.contains("Section 3"))
    }
}

@Suite("Edit-mode selection and stale editing")
@MainActor
struct EditSelectionTests {
    @Test("Multiple selection in edit mode shows check circles that Enter toggles")
    func multipleSelection() {
        let fixture = NumbersFixture(sections: 1, rowsPerSection: 3)
        fixture.tableView.allowsSelectionDuringEditing = true
        fixture.tableView.allowsMultipleSelectionDuringEditing = true
        let driver = TerminalRecordingDriver(columns: 40, rows: 10)
        let app = Application(root: NavigationController(root: fixture), driver: driver)
        fixture.setEditing(true)
        app.render()
        #expect(driver.screen.line(3).hasPrefix("▸ ○ Row 0.0"))
        app.send("Enter j Enter")
        #expect(fixture.tableView.indexPathsForSelectedRows == [IndexPath(row: 0, section: 0), IndexPath(row: 1, section: 0)])
        #expect(driver.screen.line(3).hasPrefix("  ◉ Row 0.0"))
        #expect(driver.screen.line(4).hasPrefix("▸ ◉ Row 0.1"))
    }

    @Test("Editing a row that a live update deletes ends quietly")
    func staleEditing() {
        let form = FormFixture()
        let driver = TerminalRecordingDriver(columns: 40, rows: 12)
        let app = Application(root: NavigationController(root: form), driver: driver)
        app.send("Enter 'abc'")
        #expect(form.isEditingText)
        form.textEditorPath = IndexPath(row: 9, section: 0)  // as if its row had been deleted
        app.send("j")
        #expect(!form.isEditingText)
        #expect(form.tableView.highlightedIndexPath == IndexPath(row: 1, section: 0))
    }
}

@Suite("Navigation bar layout and clicks")
@MainActor
struct NavigationBarTests {
    @Test("A click on a detail button reports it and selects nothing")
    func detailButton() {
        let form = FormFixture()
        let (app, driver) = Application.recording(NavigationController(root: form), columns: 44, rows: 18)
        let row = (0..<driver.screen.height).first { driver.screen.line($0).contains("Info") }!
        let column = driver.screen.line(row).distance(of: "ⓘ")
        app.send("click:\(column),\(row)")
        #expect(form.detailTaps == [IndexPath(row: 3, section: 1)])
        #expect(form.selections.isEmpty)
    }

    @Test("A long title yields to the buttons; a left button replaces Back; hidden Back stays hidden")
    func barLayout() {
        let form = FormFixture()
        form.title = "A very long title that cannot fit in the bar"
        let driver = TerminalRecordingDriver(columns: 40, rows: 8)
        let navigation = NavigationController(root: PlanetsFixture())
        let app = Application(root: navigation, driver: driver)
        navigation.push(form)
        var cancelled = 0
        form.navigationItem.leftBarButtonItem = BarButtonItem(system: .cancel) { cancelled += 1 }
        form.navigationItem.rightBarButtonItems = [BarButtonItem(system: .save) {}]
        app.render()
        Snapshot.assert(driver.screen, named: "bar-long-title")
        #expect(driver.screen.line(0).hasPrefix("[Cancel]"))
        #expect(driver.screen.line(0).hasSuffix("[Save]"))
        app.send("Esc")
        #expect(cancelled == 1, "Esc presses the Cancel button")
        #expect(navigation.viewControllers.count == 2)
        form.navigationItem.leftBarButtonItem = nil
        form.navigationItem.hidesBackButton = true
        app.render()
        #expect(!driver.screen.line(0).contains("‹"))
    }
}
