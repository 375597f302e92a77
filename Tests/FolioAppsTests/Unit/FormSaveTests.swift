import FolioAdapters
import FolioAppSupport
import FolioStore
import FolioTerminal
import FolioTestSupport
import Foundation
import MyLocationsApp
import Testing
import ZootasticApp

/// An edit form writes only the fields the user changed. Another program
/// (a second container on the same SQLite file, heard as another process)
/// changes a field the user never touches while the form is open; the user
/// edits another field and presses Done; both changes survive, and a value
/// the form only shows (a date, to the second) keeps its full precision.
/// Each case runs twice: Done before the app has heard the other change
/// (the test keeps the main actor, so no merge can run in between), and
/// after the form has shown it.
@MainActor
@Suite struct FormSaveTests: RecordedScreenTests {
    enum Heard: CaseIterable { case notYet, shown }

    @Test(arguments: Heard.allCases)
    func editLocationKeepsAnotherProgramsAddressAndTheDatesFraction(_ heard: Heard) async throws {
        let folder = try AppTemporaryDirectory()
        let url = folder.url.appendingPathComponent("locations.sqlite")
        let other = try LocationsStore.open(at: url)
        let when = Date(timeIntervalSince1970: 1_741_947_645.25)  // 2025-03-14T10:20:45.250Z
        let theirs = try #require(try other.viewContext.fetch(FetchRequest<Location>()).first { $0.locationDescription == "Infinite Loop" })
        theirs.date = when
        try other.viewContext.save()

        let app = launch(try MyLocationsApp.makeScreen(storeURL: url))
        press(app, Key(.character("2")), Key(.enter))  // Locations; Edit Location on its first row, Infinite Loop
        let form = try #require(topForm(app))
        #expect(form.title == "Edit Location")

        theirs.address = "1 Apple Park Way"
        try other.viewContext.save()
        if heard == .shown {
            #expect(await waitUntil { form.value("address") == "1 Apple Park Way" }, "the form shows the other program's address")
        }
        press(app, Key(.enter))  // Description
        type(app, " West")
        press(app, Key(.enter), Key(.character("e")))
        await StoreSaveQueue.allFinished()  // Done's save waits for the write lock off the main actor
        #expect(app.presentedAlert == nil, "Done saved without an alert: \(app.presentedAlert?.title ?? "")")
        #expect(topForm(app) == nil, "the form closed")

        let check = try LocationsStore.open(at: url)
        let stored = try #require(try check.viewContext.fetch(FetchRequest<Location>()).first { $0.objectID == theirs.objectID })
        #expect(stored.locationDescription == "Infinite Loop West", "the user's edit")
        #expect(stored.address == "1 Apple Park Way", "the other program's change")
        #expect(stored.date == when, "the date keeps its seconds and their fraction: \(stored.date.timeIntervalSince1970)")
    }

    @Test(arguments: Heard.allCases)
    func editAnimalKeepsAnotherProgramsHabitatAndOrder(_ heard: Heard) async throws {
        let folder = try AppTemporaryDirectory()
        let url = folder.url.appendingPathComponent("zoo.sqlite")
        let other = try ZooStore.open(at: url)
        let app = launch(try ZootasticApp.makeScreen(storeURL: url))
        press(app, Key(.enter))  // Edit Animal on the first row
        let form = try #require(topForm(app))
        let name = form.value("name")
        let theirs = try #require(try other.viewContext.fetch(FetchRequest<Animal>()).first { $0.commonName == name })
        let order = try #require(theirs.classification?.order)

        theirs.habitat = "Night House"
        try ZooStore.renameOrder(order, to: "Bats", in: other.viewContext, at: url)  // saves both
        if heard == .shown {
            #expect(await waitUntil { form.value("habitat") == "Night House" && form.value("order") == "Bats" })
        }
        press(app, Key(.enter))  // Common Name
        type(app, " II")
        press(app, Key(.enter), Key(.character("e")))
        await StoreSaveQueue.allFinished()  // Done's save waits for the write lock off the main actor
        #expect(app.presentedAlert == nil, "Done saved without an alert: \(app.presentedAlert?.title ?? "")")

        let check = try ZooStore.open(at: url)
        let stored = try #require(try check.viewContext.fetch(FetchRequest<Animal>()).first { $0.objectID == theirs.objectID })
        #expect(stored.commonName == name + " II", "the user's edit")
        #expect(stored.habitat == "Night House", "the other program's habitat")
        #expect(stored.classification?.order == "Bats", "the other program's order, not a new one under the old name")
        #expect(try check.viewContext.fetch(FetchRequest<Classification>()).allSatisfy { $0.order != order })
    }
}
