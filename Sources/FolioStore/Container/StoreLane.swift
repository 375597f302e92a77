import Synchronization

/// One connection to the store and the lock that lets one caller at a time use it.
///
/// A container gives each isolation domain lanes of its own (the view
/// context reads through one and writes through another; background
/// contexts share a third), so that a caller waiting for another
/// connection's lock never holds up the main actor's reads. A lane made
/// with an opener connects on first use, and a failure to connect is
/// thrown to that use (and tried again by the next).
///
///     let count = try lane.with { try $0.count(plan) }
final class StoreLane: @unchecked Sendable {  // `backend` is used only inside `lock`
    private var backend: StoreBackend?
    private let open: (@Sendable () throws -> StoreBackend)?
    private let lock = Mutex(())

    init(_ backend: StoreBackend) {
        self.backend = backend
        open = nil
    }

    init(opening open: @escaping @Sendable () throws -> StoreBackend) {
        self.open = open
    }

    /// Runs `body` with the connection to itself.
    func with<T>(_ body: (StoreBackend) throws -> T) throws -> T {
        try lock.withLock { _ in
            if backend == nil, let open { backend = try open() }
            return Handoff(value: try body(backend!))
        }.value
    }
}

/// Carries `body`'s result out of the lock.
private struct Handoff<T>: @unchecked Sendable {  // its only user is the caller that held the lock
    let value: T
}
