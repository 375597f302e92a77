import FolioAdapters
import FolioAppSupport
import FolioStore
import FolioTerminal
import Foundation

/// MyLocations: a "Tag" tab (a form that saves a location and shows
/// "Tagged") and a "Locations" tab (sectioned by category, edit, delete).
///
/// ```swift
/// let screen = try MyLocationsApp.makeScreen(storeURL: url)
/// ```
public enum MyLocationsApp: FolioApp {
    /// The word on the command line.
    public static let command = "locations"
    /// The name on screen.
    public static let title = "MyLocations"
    /// What the app shows, in one line.
    public static let summary = "tag places and browse them by category"
    /// The subcommands, for `--help`.
    public static let subcommands =
        [
            HelpEntry("list [--json]", "print the Locations tab as the app shows it"),
            HelpEntry(
                "add --description TEXT --category NAME --latitude X --longitude Y [--address TEXT] [--date ISO8601]",
                "tag a location; prints its id"),
            HelpEntry("delete ID", "delete the location with id ID (ids from list --json)"),
        ] + AppTransfer.help
    /// The app's own keys, for `--help`.
    public static let keys = [
        HelpEntry("Tab, 1-2", "switch between Tag and Locations"),
        HelpEntry("Enter on a field", "edit it; Enter ends, Esc restores"),
        HelpEntry("e on a form", "Done: save (\"Tagged\", \"Updated\")"),
    ]
    /// The options that take a value.
    public static let valueOptions: Set<String> = AppTransfer.valueOptions.union([
        "--description", "--category", "--latitude", "--longitude", "--address", "--date",
    ])

    /// Runs a subcommand against the store (see ``subcommands``).
    public static func runSubcommand(_ name: String, arguments: inout Arguments, context: AppContext) throws {
        try LocationsCommands.run(name, arguments: &arguments, context: context)
    }

    /// Opens the app's store (made and seeded when new), through `replica` when given.
    public static func openStore(at storeURL: URL, replica: URL?) throws -> PersistentContainer {
        try LocationsStore.open(at: storeURL, replica: replica)
    }

    /// The app's root screen on the store at `storeURL` (through `replica` when given).
    public static func makeScreen(storeURL: URL, replica: URL?) throws -> ViewController {
        // A write-protected store is shown read-only; its screens say so and refuse changes with the reason.
        let container = try LocationsStore.open(at: storeURL, replica: replica, readOnly: AppStore.isWriteProtected(replica ?? storeURL))
        let tag = LocationForm.make(title: "Tag Location", values: LocationForm.blankValues())
        tag.tabTitle = "Tag"
        if ReadOnlyStores.contains(container.viewContext) { tag.title = "Tag Location (read-only)" }
        tag.onDone = { [weak tag] _ in
            guard let tag else { return }
            do {
                let input = try LocationForm.input(from: tag)
                tag.save(in: container.viewContext, LocationsStore.adding(input, to: container.viewContext)) { [weak tag] _ in
                    guard let tag else { return }
                    tag.setValues(LocationForm.blankValues())
                    tag.showHUD("Tagged")
                }
            } catch {
                tag.presentSaveError(error)
            }
        }
        let locations = try LocationsController(container: container)
        locations.tabTitle = "Locations"
        return TabBarController(tabs: [NavigationController(root: tag), NavigationController(root: locations)]).showingSync(of: container)
    }
}
