import FolioTerminal

/// The text of `folio --help` and `folio <app> --help`: at most 80 columns,
/// every description of a page starting in one column after at least two
/// spaces (a usage too long for it gets a line of its own).
///
/// `print(HelpText.app(PlanetsApp.self))`
@MainActor
public enum HelpText {
    /// The keys every screen understands (docs/architecture.md, "Terminal interaction").
    public static let commonKeys: [HelpEntry] = [
        HelpEntry("Up/Down, k/j", "move the highlighted row; PgUp/PgDn, Home/End (g/G)"),
        HelpEntry("[ ]", "the previous / next section"),
        HelpEntry("Enter", "select the row: open, edit, choose"),
        HelpEntry("Left (h)", "swipe the row: reveal its actions; Enter does the focused one, Right (l) or Esc hides them"),
        HelpEntry("d, Delete", "delete the highlighted row: lists ask first; in edit mode the row's Delete button confirms"),
        HelpEntry("e", "Edit / Done (edit mode)"),
        HelpEntry("Shift+Up/Down, K/J", "in edit mode: move the highlighted row"),
        HelpEntry("+, a", "add, where the screen has an add button"),
        HelpEntry("Tab, 1-9", "switch tab, where there is a tab bar"),
        HelpEntry("Esc", "back; hide revealed actions; cancel an alert, action sheet or text edit"),
        HelpEntry("q", "quit from a root screen (saved data stays)"),
        HelpEntry("S", "on a replica: the sync's details (what waits, each conflict)"),
        HelpEntry("?", "the keys that work on this screen"),
    ]

    /// The page width.
    static let width = 80

    /// `folio --help`.
    public static func launcher(apps: [any FolioApp.Type]) -> String {
        let usage = [
            HelpEntry("folio", "open the launcher: Enter opens an app, Esc returns, q quits"),
            HelpEntry("folio <app> [--store PATH]", "open one app"),
            HelpEntry("folio <app> --store URI --replica PATH", "open one app on a local replica of a PostgreSQL store"),
            HelpEntry("folio <app> <subcommand> [options]", "change or print the app's data and exit"),
            HelpEntry("folio <app> --help", "the app's subcommands and keys"),
            HelpEntry("folio --version", "print the version"),
        ]
        let apps = apps.map { HelpEntry($0.command, $0.summary) }
        let column = descriptionColumn(usage + apps + commonKeys)
        var lines = wrap("folio \(FolioVersion.current): Planets, Zootastic, MyLocations and BuildGuide in a terminal.")
        lines += ["", "Usage:"] + table(usage, column: column)
        lines += ["", "Apps:"] + table(apps, column: column)
        lines += ["", "Keys:"] + table(commonKeys, column: column)
        lines += [""] + wrap(storeNote.replacingOccurrences(of: "<app>", with: "APP")) + [""] + wrap(replicaNote) + [""] + wrap(exitNote)
        return lines.joined(separator: "\n")
    }

    /// `folio <app> --help`.
    public static func app(_ app: any FolioApp.Type) -> String {
        let usage = [
            HelpEntry("folio \(app.command) [--store PATH]", "open \(app.title)"),
            HelpEntry("folio \(app.command) <subcommand> [--store PATH] [options]", "run a subcommand and exit"),
            HelpEntry(
                "folio \(app.command) [<subcommand>] --store URI --replica PATH",
                "the same on a local replica of a PostgreSQL store: it works offline and syncs"),
        ]
        let keys = app.keys + commonKeys
        let subcommands = app.subcommands + [ReplicaRun.syncSubcommand]
        let column = descriptionColumn(usage + subcommands + keys)
        var lines = wrap("folio \(app.command): \(app.summary)")
        lines += ["", "Usage:"] + table(usage, column: column)
        lines += ["", "Subcommands:"] + table(subcommands, column: column)
        lines += ["", "Keys in \(app.title):"] + table(keys, column: column)
        lines +=
            [""] + wrap(storeNote.replacingOccurrences(of: "<app>", with: app.command)) + [""] + wrap(replicaNote) + [""] + wrap(exitNote)
        return lines.joined(separator: "\n")
    }

    private static let storeNote =
        "Store: --store PATH, else $XDG_DATA_HOME/folio/<app>.sqlite, else "
        + "~/.local/share/folio/<app>.sqlite; created and seeded on first use."

    private static let replicaNote =
        "Replica: --replica PATH (else $FOLIO_REPLICA) beside a postgresql:// --store keeps a local "
        + "SQLite copy at PATH: the app and subcommands work on it offline, and it syncs with the server in the background."

    private static let exitNote =
        "Exit status: 0 success, 1 failure (not found, invalid value, unusable store, changes left "
        + "unsynced), 2 usage error, 3 sync could not reach the server."

    /// Where descriptions start: after the usages that fit a third of the
    /// page, and two spaces.
    private static func descriptionColumn(_ entries: [HelpEntry]) -> Int {
        let fitting = entries.map { DisplayWidth.of($0.usage) }.filter { $0 <= 30 }
        return 2 + (fitting.max() ?? 0) + 2
    }

    /// Entries as "  usage  description", descriptions from `column`,
    /// wrapped within the page; a usage too long for the column takes its own line.
    private static func table(_ entries: [HelpEntry], column: Int) -> [String] {
        let indent = String(repeating: " ", count: column)
        var lines: [String] = []
        for entry in entries {
            let meaning = DisplayText.wrap(entry.meaning, width: width - column)
            let usageWidth = DisplayWidth.of(entry.usage)
            if 2 + usageWidth + 2 <= column {
                let pad = String(repeating: " ", count: column - 2 - usageWidth)
                lines.append("  " + entry.usage + pad + (meaning.first ?? ""))
            } else {
                let usage = DisplayText.wrap(entry.usage, width: width - 4)
                lines += usage.prefix(1).map { "  " + $0 } + usage.dropFirst().map { "    " + $0 }
                lines.append(indent + (meaning.first ?? ""))
            }
            lines += meaning.dropFirst().map { indent + $0 }
        }
        return lines
    }

    private static func wrap(_ text: String) -> [String] {
        DisplayText.wrap(text, width: width)
    }
}
