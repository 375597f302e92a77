import Dispatch

/// Other connections' saves, read from the store's history after a position.
///
/// Every save writes its history row in the save's own transaction, at a
/// position that only grows. A reader keeps its position in the store and
/// moves it forward as it reads; history that every live reader has passed
/// is trimmed, and a reader that stays silent past a limit stops holding it
/// back. A reader therefore always finds either every row after its
/// position, or learns that some were trimmed (``HistoryRead/trimmed``) and
/// must reload. A feed has a connection of its own and is used on one queue.
///
/// SQLite wakes its feed through inotify on the store's files; PostgreSQL
/// LISTENs on the feed's connection.
package protocol StoreChangeFeed: AnyObject {
    /// Adds this reader at the newest position and returns it, in one
    /// transaction (so no trim can pass a save it has not read). Waits for
    /// the write lock up to the busy timeout, as opening the store does.
    func register() throws -> Int64
    /// Reads the rows after `position`, in one snapshot.
    func read(after position: Int64) throws -> HistoryRead
    /// As ``read(after:)``; `fresh` asks the store itself even where a
    /// feed shares what it read recently (an explicit check for changes).
    func read(after position: Int64, fresh: Bool) throws -> HistoryRead
    /// Records `position` for this reader (registering it if it is missing),
    /// drops readers silent past `silenceLimit` seconds and trims history
    /// that every remaining reader has read. Never waits for another writer:
    /// a busy store fails at once, and the next call tries again.
    func acknowledge(position: Int64, silenceLimit: Double) throws
    /// Removes this reader; its history no longer needs keeping.
    func unregister()
    /// Calls `wake` on the feed's queue whenever the store may have new
    /// history, until ``close()``. Returns false when the store cannot say
    /// (the caller then relies on polling alone).
    func startWaking(on queue: DispatchQueue, _ wake: @escaping @Sendable () -> Void) -> Bool
    /// Stops waking and closes the connection.
    func close()
    /// The schema of the containers the feed serves, for a feed that reads
    /// the rows its changes name once for all of them (others ignore it).
    func readsRows(of schema: Schema)
    /// Whether a wake comes once what it announces can be read: one read
    /// per wake finds it (a feed shared by a process's containers reads
    /// the server before it wakes them). Else a wake may come early, and
    /// the follower reads again shortly after.
    var readsBeforeWaking: Bool { get }
    /// The serial queue the followers of this feed's process run on, for a
    /// feed that wakes them all at once (nil: each follower's queue runs on
    /// its own). On one queue a wake of many containers is one thread's
    /// turn, not one thread woken for each. Nothing that runs there may wait
    /// for a follower's queue: that waits for itself.
    var followerTarget: DispatchQueue? { get }
}

extension StoreChangeFeed {
    /// A feed that reads the store every time.
    package func read(after position: Int64, fresh: Bool) throws -> HistoryRead { try read(after: position) }

    /// A feed that hands on no rows.
    package func readsRows(of schema: Schema) {}

    /// A feed woken as soon as the store may have changed.
    package var readsBeforeWaking: Bool { false }

    /// A feed whose followers run each on its own.
    package var followerTarget: DispatchQueue? { nil }
}

/// What one read of the history found.
package struct HistoryRead {
    /// Each row after the position, in order, with what it changed
    /// (empty for this container's own saves).
    package var rows: [(position: Int64, changes: ChangeSet)]
    /// History after the position was trimmed before it was read: what
    /// changed since is unknown, so everything must be reloaded.
    package var trimmed: Bool
    /// The newest position in the snapshot the rows came from.
    package var latest: Int64
    /// The stored rows of objects the rows changed, where the feed read
    /// them for every container of the process (see ``HeardRows``).
    package var heard: HeardRows?

    package init(rows: [(position: Int64, changes: ChangeSet)], trimmed: Bool, latest: Int64, heard: HeardRows? = nil) {
        self.rows = rows
        self.trimmed = trimmed
        self.latest = latest
        self.heard = heard
    }
}
