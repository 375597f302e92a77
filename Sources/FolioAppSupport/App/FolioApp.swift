import FolioStore
import FolioTerminal
import Foundation

/// One app of the `folio` executable: its names, its help, its
/// non-interactive subcommands. Each app module has one conforming type.
///
/// ```swift
/// enum PlanetsApp: FolioApp {
///     static let command = "planets"
///     static let title = "Planets"
///     ...
///     static func runSubcommand(_ name: String, arguments: inout Arguments, context: AppContext) throws {
///         switch name { case "list": ... default: throw AppError.usage(message: "unknown subcommand '\(name)'") }
///     }
/// }
/// ```
@MainActor
public protocol FolioApp {
    /// The word on the command line, e.g. "planets".
    static var command: String { get }
    /// The name on screen, e.g. "Planets".
    static var title: String { get }
    /// One line saying what the app shows.
    static var summary: String { get }
    /// The subcommands, for `--help`.
    static var subcommands: [HelpEntry] { get }
    /// The keys particular to this app, for `--help` (the common keys are added).
    static var keys: [HelpEntry] { get }
    /// Options of the subcommands that take a value (besides `--store`).
    static var valueOptions: Set<String> { get }
    /// Runs subcommand `name`, reading and then finishing `arguments`.
    /// Writes nothing to the store when it throws.
    static func runSubcommand(_ name: String, arguments: inout Arguments, context: AppContext) throws
    /// The app's root screen on the store at `storeURL` (opened, and seeded
    /// when new), through the local `replica` file when one is given (its
    /// hint bar then shows how the sync goes).
    static func makeScreen(storeURL: URL, replica: URL?) throws -> ViewController
    /// Opens the app's store at `storeURL` (made and seeded when new), through
    /// the local `replica` file when one is given: what `sync` and the
    /// subcommands on a replica work with.
    static func openStore(at storeURL: URL, replica: URL?) throws -> PersistentContainer
}

extension FolioApp {
    /// The app's root screen on the store at `storeURL`, without a replica.
    ///
    /// `let screen = try PlanetsApp.makeScreen(storeURL: url)`
    public static func makeScreen(storeURL: URL) throws -> ViewController {
        try makeScreen(storeURL: storeURL, replica: nil)
    }
}

/// A line of help: what to type, and what it does.
///
/// `HelpEntry("list [--json]", "print the table as the app shows it")`
public struct HelpEntry: Sendable {
    /// What to type.
    public let usage: String
    /// What it does.
    public let meaning: String

    /// A help line.
    public init(_ usage: String, _ meaning: String) {
        self.usage = usage
        self.meaning = meaning
    }
}

/// What a subcommand runs with: the store file, its replica, the console.
///
/// `AppContext(storeURL: url, console: .capturing())`
@MainActor
public struct AppContext {
    /// The store file (it may not exist yet: opening creates and seeds it).
    public let storeURL: URL
    /// The local replica file beside a `postgresql://` store, if any.
    public let replica: URL?
    /// Where output goes.
    public let console: Console
    /// On a replica, the container the command opened and syncs around the
    /// subcommand (one container, so that its sync is the one that runs).
    package let replicaContainer: PersistentContainer?

    /// A context for `storeURL` (through `replica` when given), writing to `console`.
    public init(storeURL: URL, replica: URL? = nil, console: Console) {
        self.init(storeURL: storeURL, replica: replica, console: console, replicaContainer: nil)
    }

    package init(storeURL: URL, replica: URL?, console: Console, replicaContainer: PersistentContainer?) {
        self.storeURL = storeURL
        self.replica = replica
        self.console = console
        self.replicaContainer = replicaContainer
    }

    /// The store a subcommand works on: the replica's container the command
    /// opened, else what `open` opens at ``storeURL``.
    ///
    /// `let container = try context.store { try ZooStore.open(at: $0) }`
    public func store(_ open: (URL) throws -> PersistentContainer) throws -> PersistentContainer {
        if let replicaContainer { return replicaContainer }
        return try open(storeURL)
    }
}
