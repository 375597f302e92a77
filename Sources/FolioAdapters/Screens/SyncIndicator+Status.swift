import FolioStore
import FolioTerminal
import Foundation

extension SyncIndicator {
    /// An indicator that follows a replica's `SyncStatus` live,
    /// with its details behind `S`: online or not, what waits, when it last
    /// synced, and each conflict (the object, its keys, both values).
    ///
    /// ```swift
    /// navigation.syncIndicator = container.syncStatus.map(SyncIndicator.init)
    /// ```
    public convenience init(_ status: SyncStatus) {
        self.init {
            State(isOnline: status.isOnline, waiting: status.waitingChanges, conflicts: status.conflicts.count, problem: status.problem)
        }
        details = { ("Sync", Self.detailLines(status)) }
    }

    /// "1 change waits", "2 changes wait".
    static func waiting(_ count: Int) -> String {
        count == 1 ? "1 change waits" : "\(count) changes wait"
    }

    /// The details, a line each.
    static func detailLines(_ status: SyncStatus) -> [String] {
        var lines = [status.isOnline ? "Online: the server answers." : "Offline: the server cannot be reached; changes are saved here."]
        lines.append(
            status.waitingChanges == 0
                ? "Nothing waits for the server."
                : "\(waiting(status.waitingChanges)) for the server.")
        if let last = status.lastSynced {
            lines.append(
                "Last synced at \(ISO8601DateFormatter.string(from: last, timeZone: .current, formatOptions: [.withTime, .withColonSeparatorInTime]))."
            )
        }
        for conflict in status.conflicts { lines.append("Conflict: " + ErrorText.oneLine(conflict.description)) }
        if let problem = status.problem { lines.append("Not pushed: " + ErrorText.oneLine(problem)) }
        return lines
    }
}

extension ViewController {
    /// Shows `container`'s sync status in the hint bar while this is the
    /// root screen (nothing for a store that is not a replica); returns self.
    ///
    /// ```swift
    /// return NavigationController(root: list).showingSync(of: container)
    /// ```
    @discardableResult
    public func showingSync(of container: PersistentContainer) -> Self {
        if let status = container.syncStatus { syncIndicator = SyncIndicator(status) }
        return self
    }
}
