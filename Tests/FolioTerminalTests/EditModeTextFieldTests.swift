import FolioTable
import FolioTableTestSupport
import Testing

@testable import FolioTerminal

@Suite("Text fields in a table that stays in edit mode")
@MainActor
struct EditModeTextFieldTests {
    /// The screen line showing `text`.
    func line(_ driver: TerminalRecordingDriver, containing text: String) -> String {
        (0..<driver.screen.height).map { driver.screen.line($0) }.first { $0.contains(text) } ?? ""
    }

    /// The other rows still show their delete markers and reorder handles.
    func expectEditControls(_ driver: TerminalRecordingDriver, _ units: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        for unit in units {
            let row = line(driver, containing: unit)
            #expect(row.contains("⊖ \(unit)") && row.hasSuffix("≡"), "\(row)", sourceLocation: sourceLocation)
        }
    }

    @Test("Selecting a text-field row in edit mode edits it: keys type, Enter ends, Esc restores, edit mode stays")
    func editsInEditMode() {
        let editor = EditorFixture()
        let navigation = NavigationController(root: PlanetsFixture())
        let (app, driver) = Application.recording(navigation, columns: 44, rows: 14)
        navigation.push(editor)
        app.render()
        expectEditControls(driver, editor.units)
        #expect(editor.keyHints.contains(KeyHint("Enter", "edit text")))
        app.send("Enter")
        #expect(editor.isEditingText)
        #expect(editor.tableView.isEditing && editor.isEditing)
        #expect(editor.selections.isEmpty, "the field takes the selection, as a text field does")
        // Edit-mode commands (d, e, K, J, h) and q are typed, not obeyed; Left and Backspace edit.
        app.send("Backspace Backspace Backspace Backspace 'Swarm' Space d e K J h q Left Backspace")
        #expect(app.isRunning)
        #expect(line(driver, containing: "Name").contains("Name  Swarm deKJq"))
        #expect(editor.tableView.isEditing && editor.isEditing)
        expectEditControls(driver, editor.units)
        app.send("Enter")
        #expect(!editor.isEditingText)
        #expect(editor.commits == ["Swarm deKJq"])
        #expect(editor.units == ["Drone", "Overlord", "Zergling"], "nothing deleted or moved while typing")
        #expect(editor.tableView.isEditing)
        expectEditControls(driver, editor.units)
        editor.tableView.checkInvariants()

        // Esc restores the text and stays on the screen, still in edit mode.
        app.send("Enter 'junk' Esc")
        #expect(!editor.isEditingText)
        #expect(editor.commits == ["Swarm deKJq"])
        #expect((editor.tableView.cellForRow(at: IndexPath(row: 0, section: 0)) as? TextFieldCell)?.text == "Swarm deKJq")
        #expect(navigation.viewControllers.count == 2, "the Esc that ends editing does not pop")
        #expect(editor.tableView.isEditing)
        expectEditControls(driver, editor.units)

        // A click on the row starts editing too; the table's keys work again after.
        let row = (0..<driver.screen.height).first { driver.screen.line($0).contains("Name") }!
        app.send("click:12,\(row) '!' Enter")
        #expect(editor.commits == ["Swarm deKJq", "Swarm deKJq!"])
        app.send("j j K")
        #expect(editor.units == ["Overlord", "Drone", "Zergling"])
        editor.tableView.checkInvariants()
        driver.screen.checkInvariants()
    }

    @Test("A reload while the user types keeps the edit: Enter commits all of it, Esc shows the data's new value")
    func reloadWhileTyping() {
        let form = FormFixture()
        let (app, driver) = Application.recording(NavigationController(root: form), columns: 44, rows: 14)
        app.send("Enter 'ling'")
        form.name = "Changed"
        form.tableView.reloadData()  // the data changed elsewhere: every cell is recycled
        app.render()
        #expect(line(driver, containing: "Name").contains("Zergling"), "the typed text stays on screen")
        app.send("'s' Enter")
        #expect(form.commits == ["Zerglings"], "the whole edit is committed, not dropped with the recycled cell")

        app.send("Enter 'junk'")
        form.name = "Theirs"
        form.tableView.reloadData()
        app.send("Esc")
        #expect(form.commits == ["Zerglings"])
        app.render()
        #expect(line(driver, containing: "Name").contains("Theirs"), "a cancelled edit shows the data as it is now")
    }

    @Test("Without selection during editing, Enter in edit mode leaves a text field alone")
    func noSelectionDuringEditing() {
        let editor = EditorFixture(selectionDuringEditing: false)
        let (app, _) = Application.recording(NavigationController(root: editor), columns: 44, rows: 14)
        // Enter does nothing on the field here, so no Enter hint is offered.
        #expect(!editor.keyHints.contains { $0.keys == "Enter" })
        app.send("Enter 'x'")
        #expect(!editor.isEditingText)
        #expect(editor.name == "Zerg")
        #expect(editor.selections.isEmpty)
        app.send("e Enter 'x' Enter")  // out of edit mode, the field edits
        #expect(editor.commits == ["Zergx"])
    }
}
