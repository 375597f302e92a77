import CSQLite
import FolioAppSupport
import FolioStore
import FolioTerminal
import FolioTestSupport
import Foundation
import MyLocationsApp
import PlanetsApp
import Testing
import ZootasticApp

/// Finding 6: every save a screen makes waits for another program's write
/// lock off the main actor. While the lock is held the screen has taken the
/// key that saves and goes on drawing and taking keys, the hint bar says
/// "saving…", and the outcome shows once the lock is free. Each test holds
/// the lock from another connection to the same file; were the save to wait
/// on the main actor, `send` would return only after the busy timeout, with
/// the save refused.
@MainActor
@Suite struct SaveWaitTests {
    @MainActor struct Session {
        let folder: AppTemporaryDirectory
        let url: URL
        let app: Application
        let driver: TerminalRecordingDriver
        var text: String { driver.screen.text }
    }

    func open(_ make: (URL) throws -> ViewController, file: String) throws -> Session {
        let folder = try AppTemporaryDirectory()
        let url = URL(fileURLWithPath: folder.path(file))
        let driver = TerminalRecordingDriver(columns: 70, rows: 20)
        let app = Application(root: try make(url), driver: driver)
        app.render()
        return Session(folder: folder, url: url, app: app, driver: driver)
    }

    /// The screen responds while the lock is held: `?` opens help over it and Esc closes it.
    func expectResponsive(_ session: Session) {
        #expect(session.app.status == "saving…", "the hint bar says the save waits: \(session.text)")
        session.app.send("?")
        #expect(session.app.isShowingHelp, "help opens while the save waits")
        session.app.send("Esc")
        #expect(!session.app.isShowingHelp)
    }

    func landed(_ session: Session, _ condition: (String) -> Bool) async -> Bool {
        await waitUntil(30) {
            session.app.render()
            return condition(session.text) && session.app.status == nil
        }
    }

    @Test func aConfirmedDeleteWaitsAndLandsWhenTheLockGoes() async throws {
        let session = try open({ try PlanetsApp.makeScreen(storeURL: $0) }, file: "planets.sqlite")
        let lock = try EndToEnd.FormSaveEndToEndTests.WriteLock(session.url.path)
        session.app.send("d Up Enter")  // Mercury's sheet, then Delete
        #expect(session.app.presentedAlert == nil, "the sheet is gone: \(session.text)")
        #expect(session.text.contains("Mercury"), "the row stays until the delete lands")
        session.app.send("j")
        #expect(session.text.contains("▸ Venus"), "the highlight moves meanwhile: \(session.text)")
        expectResponsive(session)
        lock.release()
        #expect(await landed(session) { !$0.contains("Mercury") }, "\(session.text)")
        #expect(session.app.presentedAlert == nil, "no error: \(session.text)")
        let stored = try PlanetsStore.open(at: session.url, readOnly: true).viewContext
        #expect(try PlanetsStore.planet(named: "Mercury", in: stored) == nil)
    }

    @Test func aSecondDeleteOfTheSameRowWaitsForTheFirst() async throws {
        let session = try open({ try PlanetsApp.makeScreen(storeURL: $0) }, file: "planets.sqlite")
        let lock = try EndToEnd.FormSaveEndToEndTests.WriteLock(session.url.path)
        session.app.send("d Up Enter")
        session.app.send("d")
        #expect(session.app.presentedAlert == nil, "no second sheet for a row being deleted: \(session.text)")
        #expect(session.text.contains("Still saving"), "\(session.text)")
        lock.release()
        #expect(await landed(session) { !$0.contains("Mercury") }, "\(session.text)")
        #expect(session.app.presentedAlert == nil, "no error: \(session.text)")
    }

    @Test func aReorderShowsAtOnceAndIsSavedWhenTheLockGoes() async throws {
        let session = try open({ try PlanetsApp.makeScreen(storeURL: $0) }, file: "planets.sqlite")
        let lock = try EndToEnd.FormSaveEndToEndTests.WriteLock(session.url.path)
        session.app.send("e J")  // Mercury down one
        expectResponsive(session)
        lock.release()
        #expect(await landed(session) { _ in true }, "\(session.text)")
        let stored = try PlanetsStore.open(at: session.url, readOnly: true).viewContext
        #expect(try PlanetsStore.planet(named: "Venus", in: stored)?.position == 0)
        #expect(try PlanetsStore.planet(named: "Mercury", in: stored)?.position == 1)
    }

    @Test func anEditFormsDoneWaitsWithTheFormStillWorking() async throws {
        let session = try open({ try ZootasticApp.makeScreen(storeURL: $0) }, file: "zoo.sqlite")
        session.app.send("Enter Down Enter End ' Two' Enter")  // the first animal's habitat
        #expect(session.text.contains("Edit Animal"), "\(session.text)")
        let lock = try EndToEnd.FormSaveEndToEndTests.WriteLock(session.url.path)
        session.app.send("e")
        #expect(session.text.contains("Edit Animal"), "the form stays while Done's save waits: \(session.text)")
        session.app.send("e")
        #expect(session.text.contains("Still saving"), "Done again says so: \(session.text)")
        expectResponsive(session)
        lock.release()
        #expect(await landed(session) { !$0.contains("Edit Animal") && $0.contains(" Two") }, "\(session.text)")
    }

    @Test func theTagFormsDoneWaitsAndSaysTaggedWhenSaved() async throws {
        let session = try open({ try MyLocationsApp.makeScreen(storeURL: $0) }, file: "locations.sqlite")
        session.app.send("Enter 'Harbour' Enter")
        let lock = try EndToEnd.FormSaveEndToEndTests.WriteLock(session.url.path)
        session.app.send("e")
        expectResponsive(session)
        lock.release()
        #expect(await landed(session) { $0.contains("Tagged") }, "\(session.text)")
        let stored = try LocationsStore.open(at: session.url, readOnly: true).viewContext
        #expect(try stored.count(for: FetchRequest<Location>(predicate: #Predicate { $0.locationDescription == "Harbour" })) == 1)
    }

    @Test func theLauncherOpensAnAppWhenTheLockGoesAndTakesKeysMeanwhile() async throws {
        let folder = try AppTemporaryDirectory()
        let environment = ["XDG_DATA_HOME": folder.path("data")]
        let url = try StoreLocation.resolve(app: PlanetsApp.command, explicitPath: nil, environment: environment)
        _ = try PlanetsStore.open(at: url)
        let driver = TerminalRecordingDriver(columns: 70, rows: 20)
        let launcher = LauncherController(apps: [PlanetsApp.self, ZootasticApp.self], environment: environment)
        let app = Application(root: launcher, driver: driver)
        app.render()
        let lock = try EndToEnd.FormSaveEndToEndTests.WriteLock(url.path)
        app.send("Enter")
        #expect(app.status == "opening…", "\(driver.screen.text)")
        app.send("j")
        #expect(driver.screen.text.contains("▸ Zootastic"), "the list takes keys meanwhile: \(driver.screen.text)")
        app.send("? Esc")
        lock.release()
        #expect(
            await waitUntil(30) {
                app.render(); return driver.screen.text.contains("Mercury") && app.status == nil
            },
            "\(driver.screen.text)")
        #expect(app.presentedAlert == nil)
    }
}
