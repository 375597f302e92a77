import Foundation

/// A subcommand on a replica, read from the command line and waiting to
/// run: ``FolioCommand/run(_:)-(ReplicaRun)`` syncs the replica, runs it,
/// and syncs again what it saved.
///
/// ```swift
/// if case .onReplica(let work) = command.run(["zoo", "add", "--name", "Okapi", ...]) {
///     let outcome = await command.run(work)
/// }
/// ```
public struct ReplicaRun: Sendable, Equatable {
    /// The app's command ("zoo").
    public let app: String
    /// The subcommand ("add", "list", "sync").
    public let subcommand: String
    /// Its arguments, not read yet.
    public let arguments: [String]
    /// The server's store.
    public let storeURL: URL
    /// The local replica file.
    public let replica: URL

    /// `sync`, which every app has beside a replica.
    static let syncSubcommand = HelpEntry(
        "sync --replica PATH",
        "sync the replica once: push its waiting changes, pull the server's, list what could not be settled")

    /// What `sync` and the changes' messages say, in words: "1 change", "3 changes".
    static func changes(_ count: Int) -> String {
        count == 1 ? "1 change" : "\(count) changes"
    }

    /// "1 change waits", "2 changes wait".
    static func changesWait(_ count: Int) -> String {
        changes(count) + (count == 1 ? " waits" : " wait")
    }
}
