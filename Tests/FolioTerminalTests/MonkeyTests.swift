import FolioTable
import FolioTableTestSupport
import Testing

@testable import FolioTerminal

@Suite("Random keys and sizes")
@MainActor
struct MonkeyTests {
    @Test("Tiny terminals draw without trapping")
    func tinySizes() async {
        for columns in 0...24 {
            await Task.yield()  // a turn for the other main-actor tests
            for rows in 0...7 {
                let driver = TerminalRecordingDriver(columns: columns, rows: rows)
                let planets = PlanetsFixture()
                let tabs = TabBarController(tabs: [NavigationController(root: planets), NavigationController(root: FormFixture())])
                let app = Application(root: tabs, driver: driver)
                app.send("h")
                app.send("?")
                app.send("Esc d")
                app.showHUD("Tagged")
                app.render()
                driver.screen.checkInvariants()
                #expect(driver.emulator.screen == driver.screen, "\(columns)x\(rows)")
            }
        }
    }

    @Test("Random key scripts keep the screen, the table and the terminal output consistent")
    func randomKeys() async {
        var random = ResultsRandom.printingSeed("monkey keys")
        let words = [
            "j", "k", "Up", "Down", "h", "l", "Left", "Right", "Enter", "Esc", "d", "Del", "e", "J", "K",
            "S-Up", "S-Down", "+", "a", "g", "G", "PgUp", "PgDn", "Home", "End", "Tab", "1", "2", "?",
            "'x'", "Backspace", "paste:'p\tq'", "click:5,4", "press:30,5", "drag:10,5", "release:10,5",
            "wheeldown:3,3", "wheelup:3,3", "click:2,0", "click:44,0",
        ]
        for _ in 0..<30 {
            await Task.yield()  // a turn for the other main-actor tests
            let planets = PlanetsFixture()
            let form = FormFixture()
            let tabs = TabBarController(tabs: [NavigationController(root: planets), NavigationController(root: form)])
            let driver = TerminalRecordingDriver(
                columns: Int.random(in: 20...60, using: &random),
                rows: Int.random(in: 6...20, using: &random))
            let app = Application(root: tabs, driver: driver)
            app.render()
            var script: [String] = []
            for _ in 0..<60 where app.isRunning {
                let word = words.randomElement(using: &random)!
                script.append(word)
                app.send(word)
                driver.screen.checkInvariants()
                planets.tableView.checkInvariants()
                form.tableView.checkInvariants()
                let total = planets.sections.map(\.planets.count).reduce(0, +)
                #expect(planets.tableView.numberOfRowsInAllSections == total, "after \(script)")
                #expect(driver.emulator.screen == driver.screen, "after \(script)")
                if driver.emulator.screen != driver.screen { return }
            }
        }
    }
}
