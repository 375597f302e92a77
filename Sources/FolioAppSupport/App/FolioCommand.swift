import Foundation

/// Reads `folio`'s command line and runs what it asks, or says which
/// interactive screen to open. Nothing here touches the terminal, so tests
/// drive every subcommand in-process.
///
/// ```swift
/// let console = Console.capturing()
/// let outcome = FolioCommand(apps: [PlanetsApp.self], console: console, environment: [:])
///     .run(["planets", "list", "--store", "/tmp/p.sqlite"])
/// // outcome == .exit(.success); console.output holds the list
/// ```
@MainActor
public struct FolioCommand {
    /// What the command line asked for.
    public enum Outcome: Equatable {
        /// Done: exit with this status.
        case exit(ExitStatus)
        /// Open the launcher over the four apps.
        case launcher
        /// Open `app` on the store at `storeURL`, through the local `replica` file when one is given.
        case open(app: String, storeURL: URL, replica: URL?)
        /// Run a subcommand on a replica: it syncs before and after, so
        /// finish it with ``run(_:)-(ReplicaRun)`` (which awaits the server).
        case onReplica(ReplicaRun)
    }

    /// The apps, in launcher order.
    public let apps: [any FolioApp.Type]
    /// Where output goes.
    public let console: Console
    /// The environment (for `XDG_DATA_HOME` and `HOME`).
    public let environment: [String: String]

    /// Store variables (``RawCommandLine/storeVariables``) whose values are
    /// not UTF-8: a store named by one of them is refused, never guessed.
    package var undecodableVariables: Set<String> = []

    /// A command over `apps`.
    public init(apps: [any FolioApp.Type], console: Console, environment: [String: String]) {
        self.apps = apps
        self.console = console
        self.environment = environment
    }

    /// Runs `tokens` (without the program name); errors are printed on
    /// stderr and turned into their exit status.
    public func run(_ tokens: [String]) -> Outcome {
        var appName: String?
        do {
            return try dispatch(tokens, appName: &appName)
        } catch {
            return .exit(failed(error, appName: appName))
        }
    }

    /// Prints why the command failed and returns its exit status.
    func failed(_ error: any Error, appName: String?) -> ExitStatus {
        console.error("folio: \(error)")
        guard let error = error as? AppError else { return .failure }
        if case .usage = error {
            console.error("Run 'folio\(appName.map { " " + $0 } ?? "") --help' for usage.")
        }
        return error.exitStatus
    }

    /// The options every app's command line takes with a value.
    var valueOptions: Set<String> {
        apps.reduce(into: ["--store", "--replica"]) { $0.formUnion($1.valueOptions) }
    }

    private func dispatch(_ tokens: [String], appName: inout String?) throws -> Outcome {
        var arguments = Arguments(tokens, valueOptions: valueOptions)
        _ = arguments.flag("--no-mouse")  // read by the terminal layer
        if arguments.flag("--version") {
            console.out("folio \(FolioVersion.current)")
            return .exit(.success)
        }
        guard let name = arguments.nextPositional() else {
            if arguments.wantsHelp {
                console.out(HelpText.launcher(apps: apps))
                return .exit(.success)
            }
            try arguments.finish()
            return .launcher
        }
        guard let app = apps.first(where: { $0.command == name }) else {
            throw AppError.usage(
                message: "unknown app '\(AppError.shown(name))' (expected one of: \(apps.map { $0.command }.joined(separator: ", ")))")
        }
        appName = name
        if arguments.wantsHelp {
            console.out(HelpText.app(app))
            return .exit(.success)
        }
        let explicitPath = try arguments.pathOption("--store")
        if explicitPath == nil, let name = storeVariableInUse(), undecodableVariables.contains(name) {
            throw RawCommandLine.undecodableVariable(name)
        }
        let storeURL = try StoreLocation.resolve(app: app.command, explicitPath: explicitPath, environment: environment)
        let explicitReplica = try arguments.pathOption("--replica")
        if explicitReplica == nil, undecodableVariables.contains("FOLIO_REPLICA") {
            throw RawCommandLine.undecodableVariable("FOLIO_REPLICA")
        }
        let replica = try StoreLocation.resolveReplica(explicitPath: explicitReplica, store: storeURL, environment: environment)
        guard let subcommand = arguments.nextPositional() else {
            try arguments.finish()
            return .open(app: app.command, storeURL: storeURL, replica: replica)
        }
        if subcommand == ReplicaRun.syncSubcommand.usage.split(separator: " ").first.map(String.init) {
            guard replica != nil else {
                throw AppError.usage(message: "sync needs --replica PATH (or $FOLIO_REPLICA) beside a postgresql:// --store")
            }
        } else if !app.subcommands.contains(where: { $0.usage.split(separator: " ").first.map(String.init) == subcommand }) {
            throw AppError.usage(message: "unknown subcommand '\(AppError.shown(subcommand))' for \(app.command)")
        }
        if let replica {
            return .onReplica(
                ReplicaRun(
                    app: app.command, subcommand: subcommand, arguments: arguments.remaining,
                    storeURL: storeURL, replica: replica))
        }
        try app.runSubcommand(subcommand, arguments: &arguments, context: AppContext(storeURL: storeURL, console: console))
        return .exit(.success)
    }

    /// The variable that names the store when `--store` does not, as
    /// ``StoreLocation`` reads them: `FOLIO_STORE`, then `XDG_DATA_HOME`, then `HOME`.
    private func storeVariableInUse() -> String? {
        for name in ["FOLIO_STORE", "XDG_DATA_HOME"] where undecodableVariables.contains(name) || environment[name]?.isEmpty == false {
            if name == "XDG_DATA_HOME", !undecodableVariables.contains(name), environment[name]?.hasPrefix("/") != true { continue }
            return name
        }
        return "HOME"
    }
}
