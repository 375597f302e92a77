import FolioAppSupport
import FolioStore
import FolioTerminal
import FolioTestSupport
import Foundation
import PlanetsApp
import Testing

/// Finding 2: a search puts the highlight on the first match, with the view
/// at the top, whatever the list's size: past about 8,000 changed rows the
/// results report the sections replaced rather than row by row, and the
/// highlight and the view's top then fell to the end. A highlighted object
/// that still matches keeps the highlight, and stays in view.
@MainActor
@Suite struct SearchHighlightTests {
    /// The nine planets and `extra` more whose names have no "s", so a search for "s" drops them all.
    func planets(extra: Int) throws -> (Application, TerminalRecordingDriver, AppTemporaryDirectory) {
        let folder = try AppTemporaryDirectory()
        let url = URL(fileURLWithPath: folder.path("planets.sqlite"))
        let container = try PlanetsStore.open(at: url)
        for index in 0..<extra {
            let planet = Planet(context: container.viewContext)
            planet.name = "Body \(index)"
            planet.position = 9 + index
        }
        try container.viewContext.save()
        let driver = TerminalRecordingDriver(columns: 50, rows: 14)
        let app = Application(root: try PlanetsApp.makeScreen(storeURL: url), driver: driver)
        app.render()
        return (app, driver, folder)
    }

    @Test(arguments: [0, 1_000, 10_000, 20_000])
    func theFirstMatchIsHighlightedAtTheTop(extra: Int) throws {
        let (app, driver, folder) = try planets(extra: extra)
        defer { withExtendedLifetime(folder) {} }
        app.send("/ s")
        let lines = driver.screen.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("▸ Venus"), "the first match, \(extra) more rows: \(driver.screen.text)")
        #expect(
            lines.contains("Mars") && lines.contains("Saturn") && lines.contains("Uranus"),
            "the view is at the top, every match in it: \(driver.screen.text)")
        #expect(!lines.contains("▸ Uranus"))
    }

    @Test(arguments: [0, 20_000])
    func aHighlightedMatchKeepsTheHighlightInView(extra: Int) throws {
        let (app, driver, folder) = try planets(extra: extra)
        defer { withExtendedLifetime(folder) {} }
        app.send("j j j")  // Mars
        app.send("/ s")
        let lines = driver.screen.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("▸ Mars"), "\(extra) more rows: \(driver.screen.text)")
        #expect(lines.contains("Venus"), "the view is at the top: \(driver.screen.text)")
    }
}
