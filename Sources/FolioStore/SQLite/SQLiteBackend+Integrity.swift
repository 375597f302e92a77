import Foundation

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

    /// ``checkIntegrity(upTo:)`` before any writing connection exists,
    /// where nobody has the file open (no log): on an immutable connection,
    /// which makes no file beside it, so a damaged store is refused exactly
    /// as it was. Returns false when the check is left to the writing
    /// connection: a log is there, or the file changed while it was read
    /// (a writer came; its pages are not damage).
    static func checkIntegrityUntouched(_ path: String, upTo limit: Int) throws -> Bool {
        guard StoreFile.size(of: path + "-wal") == nil, let before = FileStamp(path) else { return false }
        guard before.size <= limit else { return true }
        let verdict: String
        do {
            let connection = try SQLiteConnection(path: path, busyTimeoutMilliseconds: 2000, mode: .immutable)
            guard case .text(let text)? = try connection.rows("PRAGMA quick_check(1)").first?.first else { return false }
            verdict = text
        } catch StoreError.corrupt(_, let message) {
            verdict = message
        } catch {
            return false
        }
        if verdict == "ok" { return true }
        guard StoreFile.size(of: path + "-wal") == nil, FileStamp(path) == before else { return false }
        throw StoreError.corrupt(path: path, message: verdict)
    }
}

/// A file's size and modification time, to tell whether it changed between two looks.
struct FileStamp: Equatable {
    let size: Int
    let seconds: Int
    let nanoseconds: Int

    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        size = Int(info.st_size)
        seconds = Int(info.st_mtim.tv_sec)
        nanoseconds = Int(info.st_mtim.tv_nsec)
    }
}
