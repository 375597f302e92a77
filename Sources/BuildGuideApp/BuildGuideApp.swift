import FolioAdapters
import FolioAppSupport
import FolioStore
import FolioTerminal
import Foundation

/// BuildGuide: a list of Starcraft build guides and an editor mixing
/// static and dynamic sections.
///
/// ```swift
/// let screen = try BuildGuideApp.makeScreen(storeURL: url)
/// ```
public enum BuildGuideApp: FolioApp {
    /// The word on the command line.
    public static let command = "guides"
    /// The name on screen.
    public static let title = "BuildGuide"
    /// What the app shows, in one line.
    public static let summary = "build guides: a name, a race and an ordered build"
    /// The subcommands, for `--help`.
    public static let subcommands =
        [
            HelpEntry("list [--json]", "print the guides as the app shows them"),
            HelpEntry("add NAME [--race RACE]", "add a guide (race Protoss, Terran or Zerg)"),
            HelpEntry("add-unit NAME|--id ID UNIT", "append a unit of the guide's race to its build order"),
            HelpEntry("delete NAME | --id ID", "delete a guide and its build order (by id if names repeat)"),
        ] + AppTransfer.help
    /// The app's own keys, for `--help`.
    public static let keys = [
        HelpEntry("+ or a", "a new guide (no race yet) in the editor"),
        HelpEntry("Enter on Name / Race", "edit the name / choose the race"),
        HelpEntry("Enter on Add a Unit", "choose a unit of the guide's race"),
        HelpEntry("K/J in Build Order", "reorder (kept within the build order)"),
        HelpEntry("e / Esc in the editor", "save the guide (Done) / discard its changes"),
    ]
    /// The options that take a value.
    public static let valueOptions: Set<String> = AppTransfer.valueOptions.union(["--race", "--id"])

    /// Runs a subcommand against the store (see ``subcommands``).
    public static func runSubcommand(_ name: String, arguments: inout Arguments, context: AppContext) throws {
        try GuidesCommands.run(name, arguments: &arguments, context: context)
    }

    /// Opens the app's store (made and seeded when new), through `replica` when given.
    public static func openStore(at storeURL: URL, replica: URL?) throws -> PersistentContainer {
        try BuildGuideStore.open(at: storeURL, replica: replica)
    }

    /// The app's root screen on the store at `storeURL` (through `replica` when given).
    public static func makeScreen(storeURL: URL, replica: URL?) throws -> ViewController {
        // A write-protected store is shown read-only; its screens say so and refuse changes with the reason.
        let container = try BuildGuideStore.open(at: storeURL, replica: replica, readOnly: AppStore.isWriteProtected(replica ?? storeURL))
        return NavigationController(root: try GuidesController(container: container)).showingSync(of: container)
    }
}
