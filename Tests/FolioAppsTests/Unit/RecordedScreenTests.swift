import FolioAdapters
import FolioAppSupport
import FolioTerminal
import FolioTestSupport

/// Tests that drive an app's screen in a recording terminal, key by key, in
/// this process (the form tests: another container plays the other program).
@MainActor
protocol RecordedScreenTests {}

extension RecordedScreenTests {
    /// The screen in a recording terminal, drawn once.
    func launch(_ screen: ViewController, columns: Int = 80, rows: Int = 24) -> Application {
        let app = Application(root: screen, driver: TerminalRecordingDriver(columns: columns, rows: rows))
        app.render()
        return app
    }

    func press(_ app: Application, _ keys: Key...) {
        for key in keys { app.handle(.key(key)) }
    }

    func type(_ app: Application, _ text: String) {
        for character in text { app.handle(.key(Key(.character(character)))) }
    }

    /// The form on top of the tab (or screen) shown.
    func topForm(_ app: Application) -> FormController? {
        var node: ViewController? = app.root
        while let current = node {
            if let form = current as? FormController { return form }
            node = (current as? TabBarController)?.selectedViewController ?? (current as? NavigationController)?.topViewController
        }
        return nil
    }
}
