import Observation

/// How a replica's sync is doing, for the app to show: whether the server
/// answers, how many saves wait to be pushed, when it last synced, and the
/// conflicts it could not settle by the merge policy. Observable on the main
/// actor; nil on a container that is not a replica.
///
///     if let status = container.syncStatus {
///         print(status.isOnline ? "online" : "offline", status.waitingChanges, "waiting")
///     }
@MainActor @Observable
public final class SyncStatus {
    /// A copy of the status, as the sync engine reports it.
    public struct State: Sendable, Equatable {
        /// Whether the server answered the last time the sync asked.
        public var isOnline: Bool
        /// Local saves not yet on the server.
        public var waitingChanges: Int
        /// When a push or pull last completed, if ever in this process.
        public var lastSynced: Date?
        /// Pushed changes that met newer server values the policy left for the app (`.error`);
        /// kept in the replica file, so every container on it, and the next launch, lists them.
        public var conflicts: [SaveConflict]
        /// The last failure the sync met and could not settle (a server error other than being away), if any.
        public var problem: String?

        /// A state; all parts default to an idle, online replica.
        ///
        ///     SyncStatus.State(isOnline: false, waitingChanges: 3)
        public init(
            isOnline: Bool = true, waitingChanges: Int = 0, lastSynced: Date? = nil,
            conflicts: [SaveConflict] = [], problem: String? = nil
        ) {
            self.isOnline = isOnline
            self.waitingChanges = waitingChanges
            self.lastSynced = lastSynced
            self.conflicts = conflicts
            self.problem = problem
        }
    }

    /// The latest state.
    public private(set) var state = State()

    /// Whether the server answered the last time the sync asked.
    public var isOnline: Bool { state.isOnline }
    /// Local saves not yet on the server.
    public var waitingChanges: Int { state.waitingChanges }
    /// When a push or pull last completed, if ever in this process.
    public var lastSynced: Date? { state.lastSynced }
    /// Pushed changes that met newer server values the policy left for the app.
    public var conflicts: [SaveConflict] { state.conflicts }
    /// The last failure the sync could not settle, if any.
    public var problem: String? { state.problem }

    nonisolated init() {}

    func update(_ new: State) {
        if new != state { state = new }
    }
}

/// What one ``PersistentContainer/syncNow()`` did.
///
///     let report = try await container.syncNow()
///     print("pushed \(report.pushed), pulled \(report.pulled), \(report.unsettled.count) unsettled")
public struct SyncReport: Sendable, Equatable {
    /// Local saves pushed to the server.
    public var pushed: Int
    /// Other saves pulled from the server (history entries).
    public var pulled: Int
    /// Saves still waiting: their conflicts, or why they could not be pushed.
    public var unsettled: [SaveConflict]
    /// Saves still waiting to be pushed.
    public var waiting: Int
    /// Why the next waiting save could not be pushed, when the server refused it (not a conflict).
    public var problem: String?

    /// A report; every count defaults to zero.
    ///
    ///     SyncReport(pushed: 2, pulled: 5)
    public init(pushed: Int = 0, pulled: Int = 0, unsettled: [SaveConflict] = [], waiting: Int = 0, problem: String? = nil) {
        self.pushed = pushed
        self.pulled = pulled
        self.unsettled = unsettled
        self.waiting = waiting
        self.problem = problem
    }
}
