extension SQLiteBackend {
    /// Files up to this size (with their log) get a full `PRAGMA quick_check`
    /// when opened for writing: 8 MiB, about 50 ms here (see DECISIONS.md).
    static let integrityCheckLimit = 8 << 20

    /// Checks every page when the file and its log are at most `limit`
    /// bytes; damage found marks the store's health, so nothing is written,
    /// and throws ``StoreError/corrupt(path:message:)``. Larger files are
    /// checked page by page as they are read: a damaged page stops writing then.
    func checkIntegrity(upTo limit: Int) throws {
        guard !isInMemory else { return }
        let size = (StoreFile.size(of: path) ?? 0) + (StoreFile.size(of: path + "-wal") ?? 0)
        guard size <= limit else { return }
        let result = try connection.rows("PRAGMA quick_check(1)")
        guard case .text(let verdict)? = result.first?.first, verdict != "ok" else { return }
        connection.health.markDamaged(verdict)
        throw StoreError.corrupt(path: path, message: verdict)
    }
}
