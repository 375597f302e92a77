import BuildGuideApp
import FolioAdapters
import FolioAppSupport
import FolioStore
import FolioTerminal
import FolioTestSupport
import Foundation
import MyLocationsApp
import Testing
import ZootasticApp

/// Another program changes the very field the user edits. Done never
/// overwrites that change unseen: when the form heard it, the form says so
/// at once (also while the user is still typing in the field); when Done
/// comes first, the save is refused with nothing written, the form takes the
/// stored value as shown, and Done again saves what the user typed,
/// knowingly.
@MainActor
@Suite struct FormConflictTests: RecordedScreenTests {
    enum Moment: CaseIterable {
        /// The other program saves before the user ends editing, and the form hears it.
        case whileTyping
        /// The other program saves after the user's edit, and the form hears it before Done.
        case heardBeforeDone
        /// The other program saves just before Done, which comes before the form can hear it
        /// (the test keeps the main actor, so no merge runs in between).
        case notHeardBeforeDone
    }

    /// Edits the first field of the open form (its text plus `suffix`) while
    /// `theirs` saves another value of it at `moment`, then presses Done until it saves.
    func editAgainstAnotherProgram(
        _ app: Application, _ moment: Moment, suffix: String,
        field label: String, theirs: () throws -> Void
    ) async throws {
        let form = try #require(topForm(app))
        press(app, Key(.enter))  // the first field starts editing
        type(app, suffix)
        if moment == .whileTyping {
            try theirs()
            #expect(
                await waitUntil { app.presentedAlert?.title == "Changed Elsewhere" },
                "while the user types in \(label), the form points out the other program's change to it")
            #expect(app.presentedAlert?.message?.contains(label) == true, "\(app.presentedAlert?.message ?? "")")
            press(app, Key(.enter))  // OK
        }
        press(app, Key(.enter))  // ends editing, keeping the text
        if moment == .heardBeforeDone {
            try theirs()
            #expect(await waitUntil { app.presentedAlert?.title == "Changed Elsewhere" }, "the form points out the change to \(label)")
            press(app, Key(.enter))  // OK
        }
        if moment == .notHeardBeforeDone {
            try theirs()
            press(app, Key(.character("e")))  // Done, before the other save can be heard
            await StoreSaveQueue.allFinished()  // heard or not while the save waits, Done was pressed on the old value
            #expect(app.presentedAlert?.title == "Changed Elsewhere", "Done refused to overwrite an unseen change")
            let message = app.presentedAlert?.message ?? ""
            #expect(message.contains(label) && message.contains("Nothing was saved"), "\(message)")
            #expect(topForm(app) === form, "the form stays open with the user's text")
            press(app, Key(.enter))  // OK
        }
        press(app, Key(.character("e")))  // Done: saves what the user typed, knowingly
        await StoreSaveQueue.allFinished()
        #expect(app.presentedAlert == nil, "Done saved: \(app.presentedAlert?.message ?? "")")
        #expect(topForm(app) == nil, "the form closed")
    }

    /// An app's screen on a new store in `file`, and another program's container on it.
    func launchBesideAnotherProgram(
        _ file: String, open: (URL) throws -> PersistentContainer,
        screen: (URL) throws -> ViewController
    ) throws -> (Application, PersistentContainer, URL, AppTemporaryDirectory) {
        let folder = try AppTemporaryDirectory()
        let url = folder.url.appendingPathComponent(file)
        let other = try open(url)
        return (launch(try screen(url), columns: 100, rows: 30), other, url, folder)
    }

    @Test(arguments: Moment.allCases)
    func editLocationNeverOverwritesAnUnseenChange(_ moment: Moment) async throws {
        let (app, other, url, folder) = try launchBesideAnotherProgram(
            "locations.sqlite", open: { try LocationsStore.open(at: $0) },
            screen: { try MyLocationsApp.makeScreen(storeURL: $0) })
        defer { withExtendedLifetime(folder) {} }
        press(app, Key(.character("2")), Key(.enter))  // Locations; Edit Location on its first row
        let description = try #require(topForm(app)).value("description")
        let theirs = try #require(try other.viewContext.fetch(FetchRequest<Location>()).first { $0.locationDescription == description })

        try await editAgainstAnotherProgram(app, moment, suffix: " West", field: "Description") {
            theirs.locationDescription = "Loop Campus"
            try other.viewContext.save()
        }
        let check = try LocationsStore.open(at: url)
        let stored = try #require(try check.viewContext.fetch(FetchRequest<Location>()).first { $0.objectID == theirs.objectID })
        #expect(stored.locationDescription == description + " West", "what the user typed, saved after being told")
    }

    @Test(arguments: Moment.allCases)
    func editAnimalNeverOverwritesAnUnseenChange(_ moment: Moment) async throws {
        let (app, other, url, folder) = try launchBesideAnotherProgram(
            "zoo.sqlite", open: { try ZooStore.open(at: $0) },
            screen: { try ZootasticApp.makeScreen(storeURL: $0) })
        defer { withExtendedLifetime(folder) {} }
        press(app, Key(.enter))  // Edit Animal on the first row
        let name = try #require(topForm(app)).value("name")
        let theirs = try #require(try other.viewContext.fetch(FetchRequest<Animal>()).first { $0.commonName == name })

        try await editAgainstAnotherProgram(app, moment, suffix: " II", field: "Common Name") {
            theirs.commonName = "Renamed Elsewhere"
            try other.viewContext.save()
        }
        let check = try ZooStore.open(at: url)
        let stored = try #require(try check.viewContext.fetch(FetchRequest<Animal>()).first { $0.objectID == theirs.objectID })
        #expect(stored.commonName == name + " II", "what the user typed, saved after being told")
    }

    @Test(arguments: Moment.allCases)
    func editGuideNeverOverwritesAnUnseenChange(_ moment: Moment) async throws {
        let (app, other, url, folder) = try launchBesideAnotherProgram(
            "guides.sqlite", open: { try BuildGuideStore.open(at: $0) },
            screen: { try BuildGuideApp.makeScreen(storeURL: $0) })
        defer { withExtendedLifetime(folder) {} }
        press(app, Key(.down), Key(.enter))  // the guide editor on Cannon Rush ("4-gate pressure" sorts first)
        let name = try #require(topForm(app), "the guide editor is a form").value("name")
        let theirs = try BuildGuideStore.guide(named: name, in: other.viewContext)

        try await editAgainstAnotherProgram(app, moment, suffix: " II", field: "Name") {
            theirs.name = "Renamed Elsewhere"
            try other.viewContext.save()
        }
        let check = try BuildGuideStore.open(at: url)
        let stored = try #require(try check.viewContext.fetch(Guide.listRequest).first { $0.objectID == theirs.objectID })
        #expect(stored.name == name + " II", "what the user typed, saved after being told")
    }

    /// A refused save writes nothing: the other program's value stays until Done is pressed again.
    @Test func aRefusedDoneWritesNothing() async throws {
        let folder = try AppTemporaryDirectory()
        let url = folder.url.appendingPathComponent("locations.sqlite")
        let other = try LocationsStore.open(at: url)
        let app = launch(try MyLocationsApp.makeScreen(storeURL: url), columns: 100, rows: 30)
        press(app, Key(.character("2")), Key(.enter))
        let form = try #require(topForm(app))
        let description = form.value("description")
        let theirs = try #require(try other.viewContext.fetch(FetchRequest<Location>()).first { $0.locationDescription == description })
        press(app, Key(.enter))
        type(app, " West")
        press(app, Key(.enter))
        theirs.locationDescription = "Loop Campus"
        try other.viewContext.save()
        press(app, Key(.character("e")))
        await StoreSaveQueue.allFinished()
        #expect(app.presentedAlert?.title == "Changed Elsewhere")
        let check = try LocationsStore.open(at: url)
        let stored = try #require(try check.viewContext.fetch(FetchRequest<Location>()).first { $0.objectID == theirs.objectID })
        #expect(stored.locationDescription == "Loop Campus", "nothing was written")
        #expect(form.value("description") == description + " West", "the user's text is still in the form")
    }
}
