import FolioStore
import FolioTerminal

/// The saves a context's screens started, run one after another, each
/// waiting for the store's write lock off the main actor. While any waits,
/// the hint bar says "saving…"; the objects they touch are known, so a
/// second action on one of them is refused until the first has landed
/// rather than run on what it is about to change.
///
/// ```swift
/// StoreSaveQueue.of(context).enqueue(touching: [planet.objectID], application: app) {
///     await deleteWhenWritable(planet)
/// }
/// ```
@MainActor
package final class StoreSaveQueue {
    /// What the hint bar shows while a save waits or runs.
    package static let savingStatus = "saving…"
    private static var queues: [ObjectIdentifier: StoreSaveQueue] = [:]

    private let key: ObjectIdentifier
    private var tail: Task<Void, Never>?
    private var pendingIDs: [ObjectID: Int] = [:]
    /// The saves queued or running.
    package private(set) var count = 0

    private init(key: ObjectIdentifier) { self.key = key }

    /// The queue of `context`'s saves (made on first use, dropped when it empties:
    /// a queued save holds its context, so the key is not reused meanwhile).
    package static func of(_ context: ObjectContext) -> StoreSaveQueue {
        let key = ObjectIdentifier(context)
        if let queue = queues[key] { return queue }
        let queue = StoreSaveQueue(key: key)
        queues[key] = queue
        return queue
    }

    /// Whether a save queued or running touches `id`.
    package static func isSaving(_ id: ObjectID, in context: ObjectContext) -> Bool {
        queues[ObjectIdentifier(context)]?.pendingIDs[id] != nil
    }

    /// Waits until every save queued on `context` so far has finished.
    package static func finished(_ context: ObjectContext) async {
        await queues[ObjectIdentifier(context)]?.tail?.value
    }

    /// Whether a save is queued or running on any context.
    package static var hasUnfinished: Bool { !queues.isEmpty }

    /// Waits until every save queued so far, on any context, has finished.
    package static func allFinished() async {
        for queue in Array(queues.values) { await queue.tail?.value }
    }

    /// Runs `operation` after the saves queued before it; `application`'s
    /// hint bar says "saving…" until the queue is empty.
    package func enqueue(
        touching ids: [ObjectID], application: Application?,
        _ operation: @escaping @MainActor () async -> Void
    ) {
        let previous = tail
        count += 1
        for id in ids { pendingIDs[id, default: 0] += 1 }
        // A lasting state already shown ("offline") says more than that a save waits.
        if application?.status == nil { application?.status = Self.savingStatus }
        // A quit waits for the saves: the screen already shows their changes.
        application?.hasUnfinishedWork = { StoreSaveQueue.hasUnfinished }
        tail = Task { @MainActor in
            await previous?.value
            await operation()
            self.count -= 1
            for id in ids {
                let left = (self.pendingIDs[id] ?? 1) - 1
                self.pendingIDs[id] = left > 0 ? left : nil
            }
            guard self.count == 0 else { return }
            Self.queues[self.key] = nil
            if application?.status == Self.savingStatus { application?.status = nil }
            application?.setNeedsDisplay()
            if Self.queues.isEmpty { application?.unfinishedWorkEnded() }
        }
    }
}
