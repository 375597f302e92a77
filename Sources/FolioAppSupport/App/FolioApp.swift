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
    /// The app's root screen on the store at `storeURL` (opened, and seeded when new).
    static func makeScreen(storeURL: URL) throws -> ViewController
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

/// What a subcommand runs with: the store file, the console, the environment.
///
/// `AppContext(storeURL: url, console: .capturing())`
@MainActor
public struct AppContext {
    /// The store file (it may not exist yet: opening creates and seeds it).
    public let storeURL: URL
    /// Where output goes.
    public let console: Console

    /// A context for `storeURL`, writing to `console`.
    public init(storeURL: URL, console: Console) {
        self.storeURL = storeURL
        self.console = console
    }
}
