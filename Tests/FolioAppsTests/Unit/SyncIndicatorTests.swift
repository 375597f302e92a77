import FolioStore
import FolioTerminal
import FolioTestSupport
import Foundation
import Observation
import PlanetsApp
import Testing
import ZootasticApp

@testable import FolioAppSupport

/// The sync indicator of the terminal kit: its words for each state, the
/// hint bar following an observable model live, and a replica's conflicts
/// listed (objects, keys, both values) behind `S`.
@MainActor
@Suite struct SyncIndicatorTests {
    @Observable final class Model {
        var isOnline = true
        var waiting = 0
    }

    @Test func eachStateHasItsWords() {
        func text(_ state: SyncIndicator.State) -> String { SyncIndicator(state: state).text }
        #expect(text(.init()) == "✓ synced")
        #expect(text(.init(isOnline: false)) == "● offline")
        #expect(text(.init(isOnline: false, waiting: 3)) == "● offline · 3 waiting")
        #expect(text(.init(waiting: 1)) == "● 1 waiting")
        #expect(text(.init(waiting: 1, conflicts: 1)) == "⚠ 1 conflict · 1 waiting")
        #expect(text(.init(isOnline: false, waiting: 4, conflicts: 2)) == "⚠ 2 conflicts · offline · 4 waiting")
        #expect(text(.init(waiting: 1, problem: "taken")) == "⚠ not pushed · 1 waiting")
    }

    @Test func theHintBarFollowsAnObservableModel() async {
        let model = Model()
        let root = ViewController(title: "Notes")
        root.syncIndicator = SyncIndicator { SyncIndicator.State(isOnline: model.isOnline, waiting: model.waiting) }
        let driver = TerminalRecordingDriver(columns: 60, rows: 10)
        let app = Application(root: root, driver: driver)
        app.render()
        #expect(driver.screen.line(9).contains("✓ synced"))
        model.isOnline = false
        model.waiting = 3
        #expect(await waitUntil { driver.screen.line(9).contains("● offline · 3 waiting") }, "\(driver.screen.text)")
        model.isOnline = true
        model.waiting = 0
        #expect(await waitUntil { driver.screen.line(9).contains("✓ synced") }, "\(driver.screen.text)")
        // A status the app sets shows beside it.
        app.status = "read-only"
        app.render()
        #expect(driver.screen.line(9).contains("✓ synced ● read-only"), "\(driver.screen.line(9))")
    }

    /// The launcher shows the open app's indicator (`$FOLIO_REPLICA` beside
    /// `$FOLIO_STORE`), and none once Esc is back on the list of apps.
    @Test func theLauncherShowsTheOpenAppsIndicatorOnly() async throws {
        let cluster = try await PostgresCluster.shared()
        let folder = try AppTemporaryDirectory()
        let environment = [
            "FOLIO_STORE": try await cluster.makeDatabase(), "FOLIO_REPLICA": folder.path("zoo.sqlite"), "HOME": folder.url.path,
        ]
        let launcher = LauncherController(apps: [PlanetsApp.self, ZootasticApp.self], environment: environment)
        let driver = TerminalRecordingDriver(columns: 100, rows: 12)
        let app = Application(root: launcher, driver: driver)
        app.render()
        #expect(!driver.screen.line(11).contains("synced"))
        launcher.open(1)
        #expect(await waitUntil(30) { launcher.openApp != nil }, "\(driver.screen.text)")
        #expect(
            await waitUntil(30) {
                app.render(); return driver.screen.line(11).contains("✓ synced")
            }, "\(driver.screen.text)")
        app.send("Esc")
        app.render()
        #expect(launcher.openApp == nil)
        #expect(!driver.screen.line(11).contains("synced"), "\(driver.screen.line(11))")
    }

    /// Two replicas rename one planet apart; the one that syncs second
    /// under `.error` lists the conflict: the hint bar says so and `S`
    /// shows the planet, the key and both values. A merge policy settles it.
    @Test func aReplicasConflictIsShownAndListedUntilAPolicySettlesIt() async throws {
        let cluster = try await PostgresCluster.shared()
        let folder = try AppTemporaryDirectory()
        let server = URL(string: try await cluster.makeDatabase())!
        AppStore.replicasSyncByThemselves = false
        defer { AppStore.replicasSyncByThemselves = true }
        let here = try PlanetsStore.open(at: server, replica: folder.url.appendingPathComponent("a.sqlite"))
        let there = try PlanetsStore.open(at: server, replica: folder.url.appendingPathComponent("b.sqlite"))
        here.syncMergePolicy = .error
        let root = ViewController(title: "Planets").showingSync(of: here)
        let driver = TerminalRecordingDriver(columns: 120, rows: 20)
        let app = Application(root: root, driver: driver)
        app.render()

        try PlanetsStore.planet(named: "Mars", in: here.viewContext)?.name = "Red Planet"
        try here.viewContext.save()
        try PlanetsStore.planet(named: "Mars", in: there.viewContext)?.name = "Ares"
        try there.viewContext.save()
        #expect(try await there.syncNow().pushed == 1)
        let report = try await here.syncNow()
        #expect(report.unsettled.count == 1)
        #expect(await waitUntil { driver.screen.line(19).contains("⚠ 1 conflict · 1 waiting") }, "\(driver.screen.text)")
        app.send("S")
        let alert = try #require(app.presentedAlert)
        #expect(alert.title == "Sync")
        #expect(
            alert.message?.contains("was changed by another save: name is 'Ares' there, 'Red Planet' here") == true,
            "\(alert.message ?? "")")
        app.send("Enter")
        #expect(app.presentedAlert == nil)

        here.syncMergePolicy = .mergeByPropertyObjectTrump
        #expect(try await here.syncNow().waiting == 0)
        #expect(await waitUntil { driver.screen.line(19).contains("✓ synced") }, "\(driver.screen.text)")
        _ = try await there.syncNow()
        #expect(try PlanetsStore.planet(named: "Red Planet", in: there.viewContext) != nil)
    }
}
