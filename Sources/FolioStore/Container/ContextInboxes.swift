import FolioLocking

/// Where a container's contexts hear each other's saves and other
/// processes' commits. The history follower delivers here, not through the
/// coordinator, so that nothing running on its queue holds the coordinator
/// (and with it every connection) past the moment its container goes.
///
///     let inbox = inboxes.add { changes, heard in queue.async { merge(changes, heard: heard) } }
///     inboxes.broadcast(changes, except: inbox)
final class ContextInboxes: Sendable {
    private let state = LockedValue<(next: Int, deliver: [Int: @Sendable (ChangeSet, HeardRows?) -> Void])>((0, [:]))

    /// Adds a context's delivery; returns its number.
    func add(_ deliver: @escaping @Sendable (ChangeSet, HeardRows?) -> Void) -> Int {
        state.withLock { state in
            state.next += 1
            state.deliver[state.next] = deliver
            return state.next
        }
    }

    func remove(_ id: Int) {
        state.withLock { $0.deliver[id] = nil }
    }

    /// Whether there is an inbox besides `inbox`.
    func hasInboxes(besides inbox: Int) -> Bool {
        state.withLock { state in state.deliver.keys.contains { $0 != inbox } }
    }

    /// Delivers a change set to every inbox except `sender`'s, with the
    /// stored rows of its objects where the change feed read them.
    func broadcast(_ changes: ChangeSet, heard: HeardRows? = nil, except sender: Int?) {
        let targets = state.withLock { state in state.deliver.filter { $0.key != sender }.map(\.value) }
        for deliver in targets { deliver(changes, heard) }
    }
}
