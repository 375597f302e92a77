import CLibPQ
import FolioLocking
import Foundation

/// Where the server's notices go: a `RAISE NOTICE` or `RAISE WARNING` (from
/// a trigger, say) and libpq's own warnings (a server that shuts down while
/// a connection is idle). libpq would print them to standard error as they
/// came, escape sequences and all; every connection hands them here
/// instead, as one line each, and they go to the handler the program
/// installed, or nowhere.
///
///     PostgresNotices.route { line in log.append(line) }   // "WARNING:  check the orbit"
package enum PostgresNotices {
    /// Boxed: a closure kept as a lock's own value gains a reabstraction
    /// thunk at each `withLock`, so each notice would call through one more layer.
    private struct Handler {
        let run: @Sendable (String) -> Void
    }
    private static let handler = LockedValue<Handler?>(nil)

    /// Sends every later notice, of every connection, to `handler` (on the
    /// thread that talked to the server), or drops them when nil.
    package static func route(_ handler: (@Sendable (String) -> Void)?) {
        self.handler.withLock { $0 = handler.map(Handler.init) }
    }

    /// Hands `message` (libpq's text, with its line breaks) to the handler on one line.
    static func deliver(_ message: String) {
        let line = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        guard !line.isEmpty, let handler = handler.withLock({ $0 }) else { return }
        handler.run(line)
    }

    /// Makes `connection` send its notices here; called before it talks to the server.
    static func install(on connection: OpaquePointer) {
        _ = PQsetNoticeProcessor(
            connection,
            { _, message in
                guard let message else { return }
                PostgresNotices.deliver(String(cString: message))
            }, nil)
    }
}
