import FolioAdapters
import FolioAppSupport
import FolioStore
import FolioTerminal
import Foundation

/// The Planets app: a saved list of planets with the swipe-to-delete
/// workflow and its "Delete Planet" confirmation.
///
/// ```swift
/// let screen = try PlanetsApp.makeScreen(storeURL: url)    // open it in a terminal
/// try PlanetsApp.runSubcommand("list", arguments: &args, context: context)
/// ```
public enum PlanetsApp: FolioApp {
    /// The word on the command line.
    public static let command = "planets"
    /// The name on screen.
    public static let title = "Planets"
    /// What the app shows, in one line.
    public static let summary = "the planets, with swipe to delete and a confirmation"
    /// The subcommands, for `--help`.
    public static let subcommands =
        [
            HelpEntry("list [--json]", "print the list as the app shows it"),
            HelpEntry("add NAME", "add a planet at the end of the list"),
            HelpEntry("delete NAME", "delete the planet named NAME"),
        ] + AppTransfer.help
    /// The app's own keys, for `--help`.
    public static let keys = [
        HelpEntry("d, or Left then Enter", "Delete: asks \"Are you sure you want to permanently delete …?\""),
        HelpEntry("e, then K/J", "edit mode: reorder (the order is saved)"),
    ]
    /// The options that take a value.
    public static let valueOptions: Set<String> = AppTransfer.valueOptions

    /// Runs a subcommand against the store (see ``subcommands``).
    public static func runSubcommand(_ name: String, arguments: inout Arguments, context: AppContext) throws {
        try PlanetsCommands.run(name, arguments: &arguments, context: context)
    }

    /// Opens the app's store (made and seeded when new), through `replica` when given.
    public static func openStore(at storeURL: URL, replica: URL?) throws -> PersistentContainer {
        try PlanetsStore.open(at: storeURL, replica: replica)
    }

    /// The app's root screen on the store at `storeURL` (through `replica` when given).
    public static func makeScreen(storeURL: URL, replica: URL?) throws -> ViewController {
        // A write-protected store is shown read-only; its screens say so and refuse changes with the reason.
        let container = try PlanetsStore.open(at: storeURL, replica: replica, readOnly: AppStore.isWriteProtected(replica ?? storeURL))
        return NavigationController(root: try PlanetsListController(container: container)).showingSync(of: container)
    }
}
