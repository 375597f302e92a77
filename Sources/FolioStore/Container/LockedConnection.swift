import FolioLocking

/// One connection to the store, owned by the lock that lets one caller at a
/// time use it.
///
/// A container gives each isolation domain connections of its own (the view
/// context reads through one and writes through another; background
/// contexts share a third), so that a caller waiting for another
/// connection's lock never holds up the main actor's reads. One made with
/// an opener connects on first use, and a failure to connect is thrown to
/// that use (and tried again by the next).
///
///     let count = try connection.with { try $0.count(plan) }
final class LockedConnection: Sendable {
    private let backend: LockedValue<StoreBackend?>
    private let open: (@Sendable () throws -> StoreBackend)?

    init(_ backend: StoreBackend) {
        self.backend = LockedValue(backend)
        open = nil
    }

    init(opening open: @escaping @Sendable () throws -> StoreBackend) {
        backend = LockedValue(nil)
        self.open = open
    }

    /// Runs `body` with the connection to itself.
    func with<T>(_ body: (StoreBackend) throws -> T) throws -> T {
        try backend.withLock { backend in
            if backend == nil, let open { backend = try open() }
            return try body(backend!)
        }
    }
}
