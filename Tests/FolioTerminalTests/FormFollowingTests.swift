import FolioTable
import FolioTableTestSupport
import FolioTerminal
import Testing

/// A form over a plain source, a dictionary the test changes: no store.
/// What the user edits is told apart from what the source changes, the
/// source's changes reach the untouched fields, a change to an edited field
/// is pointed out, and a source that goes away closes the form unsaved.
@Suite("A form following a source that is no store")
@MainActor
struct FormFollowingTests {
    /// The note the form edits; nil once it is deleted.
    final class Source {
        var note: [String: String]? = ["title": "Groceries", "body": "Milk"]
        var values: FormController.Values? { note.map { FormController.Values(texts: $0) } }
    }

    /// A form over `source`, pushed over a list, in a recording application.
    func open(_ source: Source) -> (Application, NavigationController, FormController, DoneCount) {
        let form = FormController(
            title: "Edit Note",
            sections: [.init(title: "Note", fields: [.text("title", "Title"), .text("body", "Body")])],
            values: source.note ?? [:])
        form.follow(noun: "note") { source.values }
        let done = DoneCount()
        form.onDone = { _ in done.count += 1 }
        let navigation = NavigationController(root: ViewController(title: "Notes"))
        let (app, _) = Application.recording(navigation, columns: 60, rows: 16)
        navigation.push(form)
        app.render()
        return (app, navigation, form, done)
    }

    final class DoneCount { var count = 0 }

    @Test("Edits are the user's: only the changed field is in changedValues, and typing it back unchanges it")
    func edits() {
        let (app, _, form, _) = open(Source())
        #expect(form.isFollowing)
        #expect(form.editedKeys.isEmpty && form.changedValues.isEmpty)
        app.send("Enter ' list' Enter")  // the Title field
        #expect(form.value("title") == "Groceries list")
        #expect(form.editedKeys == ["title"])
        #expect(form.changedValues == ["title": "Groceries list"])
        #expect(form.shownValues["title"] == "Groceries", "what the form showed stays known")
        app.send("Enter Backspace Backspace Backspace Backspace Backspace Enter")
        #expect(form.value("title") == "Groceries")
        #expect(form.changedValues.isEmpty, "typed back as it was: not changed")
    }

    @Test("A change to an untouched field is adopted; one to an edited field is pointed out and the user's value kept")
    func followsChanges() throws {
        let source = Source()
        let (app, _, form, _) = open(source)
        app.send("Enter ' list' Enter")  // the user edits the title
        source.note?["body"] = "Milk, eggs"
        form.sourceMayHaveChanged()
        #expect(form.value("body") == "Milk, eggs", "the untouched field shows the source's change")
        #expect(app.presentedAlert == nil)
        #expect(form.changedValues == ["title": "Groceries list"], "an adopted change is not the user's")

        source.note?["title"] = "Shopping"
        form.sourceMayHaveChanged()
        #expect(app.presentedAlert?.title == "Changed Elsewhere")
        #expect(app.presentedAlert?.message?.contains("note's Title") == true, "\(app.presentedAlert?.message ?? "")")
        #expect(form.value("title") == "Groceries list", "the user's value stays")
        app.send("Enter")  // OK
        try form.requireNoChangeElsewhere()  // the change was seen: Done saves the user's value knowingly

        // A change not yet heard when the save checks: refused once, then the user's value is knowingly saved.
        source.note?["title"] = "Errands"
        #expect(throws: FormController.ChangedElsewhere.self) { try form.requireNoChangeElsewhere() }
        #expect(form.value("title") == "Groceries list")
        try form.requireNoChangeElsewhere()
    }

    @Test("A change to an edited field heard after the form closed presents nothing and ends nothing")
    func changeHeardAfterClosing() {
        let source = Source()
        let (app, navigation, form, done) = open(source)
        app.send("Enter ' list' Enter")  // the user edits the title
        #expect(navigation.pop() === form)
        source.note?["title"] = "Shopping"
        form.sourceMayHaveChanged()  // before, a trap: an alert presented by a form no longer on screen
        #expect(app.presentedAlert == nil)
        #expect(form.value("title") == "Groceries list", "the user's value stays")
        #expect(done.count == 0)
    }

    @Test("A source gone away: the save check throws DeletedElsewhere, Done does not run, the form closes and says so")
    func sourceGone() throws {
        let source = Source()
        let (app, navigation, form, done) = open(source)
        app.send("Enter ' list' Enter")
        source.note = nil
        #expect(throws: DeletedElsewhere.self) { try form.requireNoChangeElsewhere() }
        app.send("e")  // Done
        #expect(done.count == 0, "Done never runs on a source that is gone")
        #expect(navigation.topViewController !== form, "the form closed")
        #expect(app.presentedAlert?.title == "Note Deleted")
        #expect(app.presentedAlert?.message?.contains("your changes were not saved") == true, "\(app.presentedAlert?.message ?? "")")
    }

    @Test("A source gone away while the form is open closes it when the change is heard")
    func sourceGoneHeard() {
        let source = Source()
        let (app, navigation, form, done) = open(source)
        source.note = nil
        form.sourceMayHaveChanged()
        #expect(navigation.topViewController !== form)
        #expect(app.presentedAlert?.message == "Another program deleted this note while it was open here.")
        #expect(done.count == 0)
        #expect(!form.isFollowing)
    }
}
