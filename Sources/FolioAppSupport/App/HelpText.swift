/// The text of `folio --help` and `folio <app> --help`.
///
/// `print(HelpText.app(PlanetsApp.self))`
@MainActor
public enum HelpText {
    /// The keys every screen understands (docs/architecture.md, "Terminal interaction").
    public static let commonKeys: [HelpEntry] = [
        HelpEntry("Up/Down, k/j", "move the highlighted row; PgUp/PgDn, Home/End (g/G)"),
        HelpEntry("Enter", "select the row: open, toggle, activate"),
        HelpEntry("Left (h)", "swipe the row: reveal its actions; Enter activates, Right (l) or Esc hides"),
        HelpEntry("d, Delete", "ask to delete the highlighted row"),
        HelpEntry("e", "Edit / Done (edit mode)"),
        HelpEntry("Shift+Up/Down, K/J", "in edit mode: move the highlighted row"),
        HelpEntry("+, a", "add, where the screen has an add button"),
        HelpEntry("Tab, 1-9", "switch tab, where there is a tab bar"),
        HelpEntry("Esc", "back; cancel an alert, action sheet or text edit"),
        HelpEntry("q", "quit from a root screen (saved data stays)"),
        HelpEntry("?", "the keys that work on this screen"),
    ]

    /// `folio --help`.
    public static func launcher(apps: [any FolioApp.Type]) -> String {
        var lines = [
            "folio \(FolioVersion.current): Planets, Zootastic, MyLocations and BuildGuide in a terminal.",
            "",
            "Usage:",
            "  folio                                open the launcher: Enter opens an app, Esc returns, q quits",
            "  folio <app> [--store PATH]           open one app",
            "  folio <app> <subcommand> [options]   change or print the app's data and exit",
            "  folio <app> --help                   the app's subcommands and keys",
            "  folio --version",
            "",
            "Apps:",
        ]
        lines += table(apps.map { HelpEntry($0.command, $0.summary) })
        lines += ["", "Keys:"] + table(commonKeys)
        lines += ["", storeNote, "", exitNote]
        return lines.joined(separator: "\n")
    }

    /// `folio <app> --help`.
    public static func app(_ app: any FolioApp.Type) -> String {
        var lines = [
            "folio \(app.command): \(app.summary)",
            "",
            "Usage:",
            "  folio \(app.command) [--store PATH]                 open \(app.title)",
            "  folio \(app.command) <subcommand> [--store PATH] [options]",
            "",
            "Subcommands:",
        ]
        lines += table(app.subcommands)
        lines += ["", "Keys in \(app.title):"] + table(app.keys + commonKeys)
        lines += ["", storeNote.replacingOccurrences(of: "<app>", with: app.command), "", exitNote]
        return lines.joined(separator: "\n")
    }

    private static let storeNote = """
        Store: --store PATH, else $XDG_DATA_HOME/folio/<app>.sqlite, else
        ~/.local/share/folio/<app>.sqlite; created and seeded on first use.
        """

    private static let exitNote = "Exit status: 0 success, 1 failure (not found, invalid value, unusable store), 2 usage error."

    private static func table(_ entries: [HelpEntry]) -> [String] {
        let width = min(40, entries.map(\.usage.count).max() ?? 0)
        return entries.map { entry in
            let pad = String(repeating: " ", count: max(1, width - entry.usage.count + 2))
            return "  " + entry.usage + pad + entry.meaning
        }
    }
}
