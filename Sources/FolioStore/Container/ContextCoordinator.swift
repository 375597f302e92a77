import Dispatch

/// One context's way to the store: the container's shared coordinator and
/// the connections this context reads and writes through (the view context's
/// own pair, or the one background contexts share).
///
///     let rows = try context.coordinator.withBackend { try $0.rows(of: entity, ids: ids) }
final class ContextCoordinator: Sendable {
    let shared: StoreCoordinator
    private let reads: LockedConnection
    private let writes: LockedConnection
    /// Whether a save can wait for the write lock off the calling thread
    /// (the view context's own writer, on a file another connection can lock).
    let canWaitOffThread: Bool

    init(shared: StoreCoordinator, forMainActor: Bool) {
        self.shared = shared
        if forMainActor {
            reads = shared.viewReader
            writes = shared.viewWriter
            canWaitOffThread = !shared.isInMemory
        } else {
            reads = shared.backgroundConnection
            writes = reads
            canWaitOffThread = false
        }
    }

    var schema: Schema { shared.schema }
    var author: String { shared.author }
    var path: String { shared.path }
    var dialect: SQLDialect { shared.dialect }

    var isInMemory: Bool { shared.isInMemory }

    /// Runs `body` with this context's reading connection.
    func withBackend<T>(_ body: (StoreBackend) throws -> T) throws -> T {
        try reads.with(body)
    }

    /// A connection of its own holding the write lock, for `performWrite` on a file.
    func openWriteTransaction() throws -> StoreBackend {
        try writes.with { try $0.beginWriteTransaction() }
    }

    /// Opens a write transaction as ``openWriteTransaction()`` does, but
    /// waits for the lock on a utility queue, so the caller's thread is free meanwhile.
    func openWriteTransactionOffThread() async throws -> StoreBackend {
        let writes = self.writes
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<OpenedTransaction, any Error>) in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result { OpenedTransaction(backend: try writes.with { try $0.beginWriteTransaction() }) })
            }
        }.backend
    }

    /// Writes a save, waiting for other writers at most the busy timeout in
    /// all (inside the lock wait the caller may already have done).
    func commit(_ batch: SaveBatch) throws -> [ObjectID] {
        try writes.with { backend in
            if !backend.isWriting { try backend.beginWritingForSave(until: backend.deadlineFromNow) }
            return try backend.commit(batch, author: author)
        }
    }

    /// Runs a batch request, waiting for other writers as ``commit(_:)`` does.
    func execute(_ batch: BatchWrite) throws -> BatchOutcome {
        try writes.with { backend in
            if !backend.isWriting { try backend.beginWritingForSave(until: backend.deadlineFromNow) }
            return try backend.execute(batch, author: author)
        }
    }

    /// Waits on a utility queue until this context's writer holds the write
    /// lock (or `deadline` passes: `busy`); the transaction stays open for
    /// the next ``commit(_:)`` or ``abandonWrite()``.
    func waitForWriteLock(until deadline: UInt64) async throws {
        let writes = self.writes
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(
                    with: Result {
                        try writes.with { backend in
                            if !backend.isWriting { try backend.beginWriting(until: deadline) }
                        }
                    })
            }
        }
    }

    /// Whether a write transaction is open, waiting for a commit.
    var isWriteOpen: Bool { (try? writes.with { $0.isWriting }) ?? false }

    /// Ends an open write transaction without writing.
    func abandonWrite() {
        _ = try? writes.with { $0.abandonWriting() }
    }

    /// A deadline a busy timeout from now.
    var deadlineFromNow: UInt64 { (try? writes.with { $0.deadlineFromNow }) ?? DispatchTime.now().uptimeNanoseconds }

    func addInbox(_ deliver: @escaping @Sendable (ChangeSet, HeardRows?) -> Void) -> Int { shared.addInbox(deliver) }

    func removeInbox(_ id: Int) { shared.removeInbox(id) }

    func broadcast(_ changes: ChangeSet, except sender: Int?) { shared.broadcast(changes, except: sender) }

    /// Whether a context other than `inbox`'s would hear a broadcast.
    func hasInboxes(besides inbox: Int) -> Bool { shared.hasInboxes(besides: inbox) }
}

/// A write transaction's connection, carried from the thread that waited for its lock to the caller.
private struct OpenedTransaction: @unchecked Sendable {  // handed over whole: one thread uses it at a time
    let backend: StoreBackend
}
