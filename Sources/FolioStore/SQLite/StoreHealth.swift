import FolioLocking

/// Whether damage has been found in a store file, shared by every
/// connection a container opens on it. Once set it stays: each connection
/// turns `query_only` on before its next statement, so nothing more is
/// written to the file (no save, no migration, no reader row, no checkpoint).
///
///     health.markDamaged("database disk image is malformed")
///     health.damage   // "database disk image is malformed"
final class StoreHealth: Sendable {
    private let found = LockedValue<String?>(nil)

    /// SQLite's message for the first damage found, or nil.
    var damage: String? { found.withLock { $0 } }

    /// Records damage (the first message is kept).
    func markDamaged(_ message: String) {
        found.withLock { if $0 == nil { $0 = message } }
    }
}
