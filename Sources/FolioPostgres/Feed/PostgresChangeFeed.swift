import Dispatch
import FolioStore
import Foundation

/// The PostgreSQL change feed of one container (or a replica's sync): a
/// reader of the namespace's history, sharing with every other feed of
/// the process one listening connection, a small pool of working
/// connections and the history read after each wake (``PostgresFeedHub``).
/// A notification wakes it; what changed comes from the history, so a dropped
/// notification, a lost connection or a restarted server loses nothing.
/// Each new listening session wakes it for a read from its position (the
/// catch-up). Used on the follower's queue only.
///
///     let feed = try PostgresChangeFeed(uri: uri, namespace: "planets", reader: author)
///     let read = try feed.read(after: position)
package final class PostgresChangeFeed: StoreChangeFeed {
    private let reader: String
    private let hub: PostgresFeedHub
    private var id: Int?
    /// What was heard since the last read: nothing, only this reader's own
    /// saves, or anything else (another save, a reread, a session begun).
    private enum Heard { case nothing, onlyOwn, other }
    private var heardSinceRead = Heard.nothing

    init(server: PostgresServer, namespace: String?, reader: String, busyTimeoutMilliseconds: Int32) throws {
        self.reader = reader
        hub = PostgresFeedHub.shared(server, namespace: namespace, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        id = hub.add(reader: reader)
    }

    /// A feed on the store at `uri` (tests drive one directly).
    package convenience init(uri: String, namespace: String?, reader: String) throws {
        try self.init(server: PostgresServer(uri: uri), namespace: namespace, reader: reader, busyTimeoutMilliseconds: 5000)
    }

    deinit { close() }

    private func subscription() throws -> Int {
        guard let id else { throw StoreError.cannotOpen(path: hub.key.uri, message: "the change feed was closed") }
        return id
    }

    package func register() throws -> Int64 {
        try hub.register(try subscription())
    }

    /// What was saved after `position`, up to the horizon.
    package func read(after position: Int64) throws -> HistoryRead {
        try read(after: position, fresh: false)
    }

    /// As ``read(after:)``; `fresh` asks the server even when the process's window seems current.
    package func read(after position: Int64, fresh: Bool) throws -> HistoryRead {
        _ = try subscription()
        defer { heardSinceRead = .nothing }
        return try hub.read(after: position, reader: reader, fresh: fresh)
    }

    /// Whether notifications came since the last call and all were this
    /// reader's own saves: nothing new for a reader that has those. Any
    /// other save's commit is followed by a notification naming its author
    /// alone, or none when it announces several authors' saves (see
    /// ``PostgresNotifier``), and a reread's wake names nothing, so this is
    /// false after any of them. Starts the count again.
    package func heardOnlyOwn() -> Bool {
        defer { heardSinceRead = .nothing }
        return heardSinceRead == .onlyOwn
    }

    /// Notes the notifications heard (nil: a session ended or began).
    private func hear(_ payloads: [String]?) {
        guard let payloads else { return heardSinceRead = .other }
        for payload in payloads {
            let parts = payload.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[1] == reader, Int64(parts[0]) != nil {
                if heardSinceRead == .nothing { heardSinceRead = .onlyOwn }
            } else {
                heardSinceRead = .other
            }
        }
    }

    package func readsRows(of schema: Schema) { hub.readsRows(of: schema) }

    /// The hub reads the server before it wakes the process's feeds.
    package var readsBeforeWaking: Bool { true }

    /// The hub's queue, where it passes wakes on.
    package var followerTarget: DispatchQueue? { hub.wakeQueue }

    package func acknowledge(position: Int64, silenceLimit: Double) throws {
        try hub.acknowledge(try subscription(), position: position, silenceLimit: silenceLimit)
    }

    package func unregister() {
        if let id { hub.unregister(id) }
    }

    package func startWaking(on queue: DispatchQueue, _ wake: @escaping @Sendable () -> Void) -> Bool {
        guard let id else { return false }
        let feed = OnFeedQueue(feed: self)
        hub.startWaking(id, on: queue) { payloads in
            feed.feed?.hear(payloads)
            wake()
        }
        return true
    }

    /// The server process of the process's listening connection (tests end it to show the feed recovers).
    package var listenerProcessID: Int32 { hub.listener.processID.load(ordering: .relaxed) }

    package func close() {
        guard let id else { return }
        self.id = nil
        hub.remove(id)
    }
}

/// The feed, for the closures the hub runs on the feed's queue.
private struct OnFeedQueue: @unchecked Sendable {  // used only on the feed's queue, where the feed lives
    weak var feed: PostgresChangeFeed?
}
