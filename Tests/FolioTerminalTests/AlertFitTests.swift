import FolioTable
import FolioTableTestSupport
import Testing

@testable import FolioTerminal

/// Finding 4: an alert or action sheet keeps its buttons on the screen at
/// every size, down to the smallest: the message is cut with "…" (then the
/// title, then a sheet's Cancel joins the other buttons), and at the very
/// least the focused button shows; an alert leaves the bars above and below
/// it in sight where there is room.
@Suite("Alerts and sheets keep their buttons on short screens")
@MainActor
struct AlertFitTests {
    static let message =
        "Are you sure you want to permanently delete West Indian Manatee and its build order of 4 units? "
        + "This cannot be undone, and another program may be showing it right now."

    func make(_ style: AlertController.Style, buttons: Int, message: String?) -> AlertController {
        let alert = AlertController(title: style == .alert ? "Not Saved" : "Confirm", message: message, preferredStyle: style)
        let titles = ["Delete", "Archive", "Move", "Copy"]
        for index in 0..<(buttons - 1) {
            alert.addAction(AlertAction(title: titles[index], style: index == 0 ? .destructive : .default))
        }
        alert.addAction(AlertAction(title: style == .alert ? "OK" : "Cancel", style: .cancel))
        return alert
    }

    @Test(arguments: [AlertController.Style.alert, .actionSheet])
    func everyButtonShowsAtEverySize(style: AlertController.Style) {
        for columns in [16, 20, 30, 40, 80] {
            for rows in 3...24 {
                for buttons in 1...4 {
                    for message in [nil, "Short.", Self.message, String(repeating: Self.message, count: 4)] {
                        check(style, columns: columns, rows: rows, buttons: buttons, message: message)
                    }
                }
            }
        }
    }

    func check(_ style: AlertController.Style, columns: Int, rows: Int, buttons: Int, message: String?) {
        let driver = TerminalRecordingDriver(columns: columns, rows: rows)
        let app = Application(root: NavigationController(root: PlanetsFixture()), driver: driver)
        let alert = make(style, buttons: buttons, message: message)
        app.present(alert)
        let seen = "\(style) \(columns)×\(rows), \(buttons) buttons, message \(message?.count ?? 0):\n\(driver.screen.text)"
        for _ in 0..<buttons {
            app.render()
            driver.screen.checkInvariants()
            let text = driver.screen.text
            #expect(text.contains(alert.focusedTitle ?? "?"), "the focused button \(alert.focusedTitle ?? "") shows: \(seen)")
            // Room for the buttons and two borders: every button shows.
            let content = rows - (rows > 3 ? 1 : 0)
            if (content >= 8 ? content - 2 : content) >= buttons + 2 {
                for action in alert.displayedActions {
                    #expect(text.contains(action.title), "\(action.title) shows: \(seen)")
                }
            }
            _ = alert.handle(Key(.tab))
        }
        if let message, rows >= 12, columns >= 40, !driver.screen.text.contains(String(message.suffix(12))) {
            #expect(driver.screen.text.contains("…"), "a cut message ends in …: \(seen)")
        }
    }

    @Test func anAlertThatFitsLeavesTheBarsInSight() {
        let driver = TerminalRecordingDriver(columns: 40, rows: 10)
        let tabs = TabBarController(tabs: [NavigationController(root: PlanetsFixture()), NavigationController(root: FormFixture())])
        let app = Application(root: tabs, driver: driver)
        app.present(make(.alert, buttons: 1, message: Self.message))
        app.render()
        let lines = (0..<driver.screen.height).map { driver.screen.line($0) }
        #expect(
            lines[lines.count - 2].contains("Planets") || lines[lines.count - 2].contains("1"), "the tab bar shows: \(driver.screen.text)")
        #expect(driver.screen.text.contains("OK") && driver.screen.text.contains("…"), "\(driver.screen.text)")
    }
}
