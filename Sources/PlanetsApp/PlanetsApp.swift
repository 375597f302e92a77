import FolioAppSupport
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
    public static let command = "planets"
    public static let title = "Planets"
    public static let summary = "the planets, with swipe to delete and a confirmation"
    public static let subcommands = [
        HelpEntry("list [--json]", "print the list as the app shows it"),
        HelpEntry("add NAME", "add a planet at the end of the list"),
        HelpEntry("delete NAME", "delete the planet named NAME"),
    ]
    public static let keys = [
        HelpEntry("Left, then Enter", "Delete: asks \"Are you sure you want to permanently delete …?\""),
        HelpEntry("e, then K/J", "edit mode: reorder (the order is saved)"),
    ]
    public static let valueOptions: Set<String> = []

    public static func runSubcommand(_ name: String, arguments: inout Arguments, context: AppContext) throws {
        try PlanetsCommands.run(name, arguments: &arguments, context: context)
    }

    public static func makeScreen(storeURL: URL) throws -> ViewController {
        let container = try PlanetsStore.open(at: storeURL)
        return NavigationController(root: try PlanetsListController(container: container))
    }
}
