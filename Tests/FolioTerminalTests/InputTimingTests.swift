import Dispatch
import FolioTable
import FolioTableTestSupport
import Testing

@testable import FolioTerminal

@Suite("Input across reads")
@MainActor
struct InputTimingTests {
    func app() -> (Application, PlanetsFixture) {
        let planets = PlanetsFixture()
        let app = Application(root: NavigationController(root: planets), driver: TerminalRecordingDriver(columns: 50, rows: 14))
        app.render()
        return (app, planets)
    }

    @Test("A lone Esc that waited its pause is Esc when the next key comes before the flush timer")
    func staleEscapeIsEscape() {
        let (app, planets) = app()
        let start = DispatchTime.now()
        app.receive(Array("h".utf8), at: start)
        #expect(planets.tableView.swipedIndexPath != nil)
        app.receive([0x1B], at: start)
        app.receive(Array("q".utf8), at: DispatchTime(uptimeNanoseconds: start.uptimeNanoseconds + 40_000_000))
        #expect(planets.tableView.swipedIndexPath == nil, "Esc hid the actions")
        #expect(!app.isRunning, "then q quit")
    }

    @Test("Within the pause, Esc and the next key are Alt plus that key")
    func quickEscapeIsAlt() {
        let (app, _) = app()
        let start = DispatchTime.now()
        app.receive([0x1B], at: start)
        app.receive(Array("q".utf8), at: DispatchTime(uptimeNanoseconds: start.uptimeNanoseconds + 5_000_000))
        #expect(app.isRunning, "Alt-q is not q")
    }
}
