import BuildGuideApp
import FolioAdapters
import FolioAppSupport
import FolioStore
import FolioTerminal
import FolioTestSupport
import Foundation
import Testing

/// The guide editor is a form, as Edit Location and Edit Animal are: its
/// name, race and build order are held apart from the guide until Done
/// saves them, Esc discards them, another program's change to what the user
/// did not touch shows, and one to what the user changed is never
/// overwritten unseen. Another container on the file plays the other program.
@MainActor
@Suite struct GuideFormTests: RecordedScreenTests {
    enum Heard: CaseIterable { case notYet, shown }

    /// The guide named `name` as stored now, read by a container of its own.
    func stored(_ name: String, at url: URL) throws -> (race: String?, units: [String])? {
        let check = try BuildGuideStore.open(at: url)
        guard let guide = try check.viewContext.fetch(Guide.listRequest).first(where: { $0.name == name }) else { return nil }
        return (guide.race?.name, guide.units.map(\.name))
    }

    /// The guide list on a store whose Cannon Rush (Protoss) has `units`, and the other program's container.
    func guides(units: [String]) throws -> (Application, PersistentContainer, URL, AppTemporaryDirectory) {
        let folder = try AppTemporaryDirectory()
        let url = folder.url.appendingPathComponent("guides.sqlite")
        let other = try BuildGuideStore.open(at: url)
        for unit in units {
            try BuildGuideStore.addUnit(
                unit, to: try BuildGuideStore.guide(named: "Cannon Rush", in: other.viewContext),
                in: other.viewContext, at: url)
        }
        let app = launch(try BuildGuideApp.makeScreen(storeURL: url), columns: 100, rows: 30)
        return (app, other, url, folder)
    }

    /// Opens Cannon Rush (the seed sorts "4-gate pressure" first) in the editor.
    func openCannonRush(_ app: Application) throws -> FormController {
        press(app, Key(.down), Key(.enter))
        let form = try #require(topForm(app), "the guide editor is a form")
        #expect(form.title == "Edit Guide" && form.value("name") == "Cannon Rush")
        return form
    }

    /// Renames the guide, deletes its first step and moves the next one down.
    func edit(_ app: Application, _ form: FormController) {
        press(app, Key(.enter))  // Name
        type(app, " II")
        press(app, Key(.enter))
        form.tableView.highlightRow(at: IndexPath(row: 0, section: 1))
        press(app, Key(.character("d")), Key(.character("d")))  // the delete control, then its confirmation
        form.tableView.highlightRow(at: IndexPath(row: 0, section: 1))
        press(app, Key(.character("J")))
    }

    @Test func nothingIsSavedBeforeDoneAndEscDiscards() async throws {
        let (app, _, url, folder) = try guides(units: ["Pylon", "Forge", "Gateway"])
        defer { withExtendedLifetime(folder) {} }
        let form = try openCannonRush(app)
        edit(app, form)
        #expect(form.value("name") == "Cannon Rush II" && form.items("units") == ["Gateway", "Forge"], "\(form.items("units"))")
        #expect(try stored("Cannon Rush", at: url)?.units == ["Pylon", "Forge", "Gateway"], "nothing saved before Done")
        press(app, Key(.escape))
        #expect(topForm(app) == nil, "Esc left the editor")
        #expect(try stored("Cannon Rush", at: url)?.units == ["Pylon", "Forge", "Gateway"], "Esc saved nothing")
        #expect(try stored("Cannon Rush II", at: url) == nil)

        press(app, Key(.enter))  // Cannon Rush, still highlighted
        let again = try #require(topForm(app))
        #expect(
            again.value("name") == "Cannon Rush" && again.items("units") == ["Pylon", "Forge", "Gateway"],
            "a new editor shows the stored guide")
        edit(app, again)
        press(app, Key(.character("e")))  // Done
        await StoreSaveQueue.allFinished()
        #expect(app.presentedAlert == nil, "\(app.presentedAlert?.message ?? "")")
        #expect(topForm(app) == nil, "Done closed the editor")
        #expect(try stored("Cannon Rush II", at: url)?.units == ["Gateway", "Forge"], "Done saved the name and the build order")
    }

    @Test(arguments: Heard.allCases)
    func anUntouchedBuildOrderFollowsAndSurvivesDone(_ heard: Heard) async throws {
        let (app, other, url, folder) = try guides(units: [])
        defer { withExtendedLifetime(folder) {} }
        let form = try openCannonRush(app)
        let theirs = try BuildGuideStore.guide(named: "Cannon Rush", in: other.viewContext)
        try BuildGuideStore.addUnit("Pylon", to: theirs, in: other.viewContext, at: url)
        if heard == .shown {
            #expect(await waitUntil { form.items("units") == ["Pylon"] }, "the editor shows the other program's step")
        }
        press(app, Key(.enter))
        type(app, " II")
        press(app, Key(.enter), Key(.character("e")))
        await StoreSaveQueue.allFinished()
        #expect(app.presentedAlert == nil, "\(app.presentedAlert?.message ?? "")")
        let saved = try #require(try stored("Cannon Rush II", at: url))
        #expect(saved.units == ["Pylon"], "the other program's step survives the rename")
        #expect(saved.race == "Protoss")
    }

    /// A new race empties the build order; a step another program added
    /// meanwhile is pointed out (heard, or found by Done inside its write
    /// transaction), and never dropped unseen, nor left under another race.
    @Test(arguments: Heard.allCases)
    func aNewRaceNeverDropsAStepAddedElsewhereUnseen(_ heard: Heard) async throws {
        let (app, other, url, folder) = try guides(units: [])
        defer { withExtendedLifetime(folder) {} }
        let form = try openCannonRush(app)
        form.tableView.highlightRow(at: IndexPath(row: 1, section: 0))
        press(app, Key(.enter), Key(.character("G")), Key(.enter))  // Race: Zerg, the last
        #expect(form.value("race") == "Zerg")
        let theirs = try BuildGuideStore.guide(named: "Cannon Rush", in: other.viewContext)
        try BuildGuideStore.addUnit("Pylon", to: theirs, in: other.viewContext, at: url)
        if heard == .shown {
            #expect(await waitUntil { app.presentedAlert?.title == "Changed Elsewhere" }, "the added step is pointed out")
        } else {
            press(app, Key(.character("e")))
            await StoreSaveQueue.allFinished()
            #expect(app.presentedAlert?.title == "Changed Elsewhere", "Done refused to drop an unseen step")
            #expect(try stored("Cannon Rush", at: url).map { [$0.race ?? ""] + $0.units } == ["Protoss", "Pylon"], "nothing written")
        }
        #expect(app.presentedAlert?.message?.contains("Build Order") == true, "\(app.presentedAlert?.message ?? "")")
        press(app, Key(.enter))  // OK
        #expect(form.value("race") == "Zerg" && form.items("units") == [], "the user's race and build order stay")
        press(app, Key(.character("e")))  // Done, knowingly
        await StoreSaveQueue.allFinished()
        #expect(app.presentedAlert == nil, "\(app.presentedAlert?.message ?? "")")
        let saved = try #require(try stored("Cannon Rush", at: url))
        #expect(saved.race == "Zerg" && saved.units == [], "no Protoss step under a Zerg guide")
    }

    /// A step's secondary text is its type in the race the form holds now,
    /// never a same-named unit's of another race.
    @Test func aStepShowsItsTypeInTheFormsRace() throws {
        let (app, _, _, folder) = try guides(units: ["Pylon", "Forge"])
        defer { withExtendedLifetime(folder) {} }
        let form = try openCannonRush(app)
        func detail(_ row: Int) -> String? {
            form.tableView(form.tableView, cellForRowAt: IndexPath(row: row, section: 1)).detailTextLabel?.text
        }
        #expect(detail(0) == "Structure" && detail(1) == "Structure", "\(String(describing: detail(0)))")
        form.setValue("Terran", for: "race")
        #expect(detail(0) == nil, "a Pylon is no Terran unit: \(String(describing: detail(0)))")
    }

    @Test func addGuideSavesOnlyOnDoneWithTheRaceChosenFirst() async throws {
        let folder = try AppTemporaryDirectory()
        let url = folder.url.appendingPathComponent("guides.sqlite")
        let app = launch(try BuildGuideApp.makeScreen(storeURL: url), columns: 100, rows: 30)
        press(app, Key(.character("+")))
        let form = try #require(topForm(app))
        #expect(form.title == "Add Guide" && form.value("name") == "Test Guide")
        press(app, Key(.escape))
        #expect(try stored("Test Guide", at: url) == nil, "Esc saved nothing")

        press(app, Key(.character("+")))
        let added = try #require(topForm(app))
        press(app, Key(.character("G")), Key(.enter))  // Add a Unit
        #expect(app.presentedAlert?.title == "Race not selected" && app.presentedAlert?.message == "Please select a race first")
        press(app, Key(.enter))
        added.tableView.highlightRow(at: IndexPath(row: 1, section: 0))
        press(app, Key(.enter), Key(.character("G")), Key(.enter))  // Race: Zerg
        press(app, Key(.character("G")), Key(.enter), Key(.enter))  // Add a Unit: the first of Zerg's
        let first = try #require(SampleData.races.first { $0.name == "Zerg" }?.units.first?.name)
        #expect(added.items("units") == [first])
        #expect(try stored("Test Guide", at: url) == nil, "nothing saved before Done")
        press(app, Key(.character("e")))
        await StoreSaveQueue.allFinished()
        let saved = try #require(try stored("Test Guide", at: url))
        #expect(saved.race == "Zerg" && saved.units == [first])
    }

    @Test func anEmptyNameIsRefusedByDoneInTheFormsWords() throws {
        let (app, _, url, folder) = try guides(units: ["Pylon"])
        defer { withExtendedLifetime(folder) {} }
        let form = try openCannonRush(app)
        press(app, Key(.enter), Key(.character("u"), modifiers: .control), Key(.enter), Key(.character("e")))
        #expect(app.presentedAlert?.title == "Not Saved")
        #expect(
            app.presentedAlert?.message?.hasPrefix("Name: must have a visible character") == true, "\(app.presentedAlert?.message ?? "")")
        #expect(topForm(app) === form, "the form stays open")
        #expect(try stored("Cannon Rush", at: url) != nil)
    }
}
