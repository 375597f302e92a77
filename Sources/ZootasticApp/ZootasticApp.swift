import FolioAdapters
import FolioAppSupport
import FolioStore
import FolioTerminal
import Foundation

/// Zootastic: animals sectioned by classification order, following every
/// change to the store live.
///
/// ```swift
/// let screen = try ZootasticApp.makeScreen(storeURL: url)
/// ```
public enum ZootasticApp: FolioApp {
    /// The word on the command line.
    public static let command = "zoo"
    /// The name on screen.
    public static let title = "Zootastic"
    /// What the app shows, in one line.
    public static let summary = "animals by classification order, live from the store"
    /// The subcommands, for `--help`.
    public static let subcommands =
        [
            HelpEntry("list [--json]", "print the animals as the app shows them"),
            HelpEntry("add --name NAME --habitat TEXT --order ORDER", "add an animal (a new order makes a classification)"),
            HelpEntry("delete --name NAME | --id ID", "delete the animal named NAME (refused if several are) or with id ID"),
            HelpEntry(
                "rename-order OLD NEW [--merge]",
                "rename a classification's order: its animals change section (--merge: onto an existing order)"),
        ] + AppTransfer.help
    /// The app's own keys, for `--help`.
    public static let keys = [
        HelpEntry("+ or a", "add an animal through a form (Enter edits a field, e saves)"),
        HelpEntry("d, or Left then Enter", "delete the animal (asks first)"),
    ]
    /// The options that take a value.
    public static let valueOptions: Set<String> = AppTransfer.valueOptions.union(["--name", "--habitat", "--order", "--id"])

    /// Runs a subcommand against the store (see ``subcommands``).
    public static func runSubcommand(_ name: String, arguments: inout Arguments, context: AppContext) throws {
        try ZooCommands.run(name, arguments: &arguments, context: context)
    }

    /// Opens the app's store (made and seeded when new), through `replica` when given.
    public static func openStore(at storeURL: URL, replica: URL?) throws -> PersistentContainer {
        try ZooStore.open(at: storeURL, replica: replica)
    }

    /// The app's root screen on the store at `storeURL` (through `replica` when given).
    public static func makeScreen(storeURL: URL, replica: URL?) throws -> ViewController {
        // A write-protected store is shown read-only; its screens say so and refuse changes with the reason.
        let container = try ZooStore.open(at: storeURL, replica: replica, readOnly: AppStore.isWriteProtected(replica ?? storeURL))
        return NavigationController(root: try AnimalsController(container: container)).showingSync(of: container)
    }
}
