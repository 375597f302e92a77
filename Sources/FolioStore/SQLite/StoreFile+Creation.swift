import Foundation

extension StoreFile {
    /// Puts a new store at `path` in one step: `image` is written to a file
    /// of its own beside it, flushed, and then renamed into place. A process
    /// killed at any moment leaves no store or a whole one, never a part.
    /// Creators in the folder take turns (a lock on the folder), and one that
    /// finds a store already there leaves it, so concurrent first launches
    /// make one store. Returns whether this call made it.
    ///
    /// Leftovers of an earlier attempt or of a deleted store (a log without
    /// its database) are removed first, under the same lock, so they can
    /// never be read as part of the new store.
    static func place(_ image: Data, at path: String, for schema: Schema, busyTimeout: Double) throws -> Bool {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let lock = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard lock >= 0 else { throw failure(path, "the folder \(folder) cannot be opened") }
        defer { close(lock) }
        let deadline = Date().addingTimeInterval(busyTimeout)
        while flock(lock, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
                if errno == EWOULDBLOCK { throw StoreError.busy(path: path) }
                throw failure(path, "the folder cannot be locked")
            }
            usleep(2000)
        }
        defer { flock(lock, LOCK_UN) }
        let state = try inspect(path, for: schema)
        guard state == .absent || state == .empty else { return false }
        let partial = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).folio-new").path
        for leftover in [partial, path + "-wal", path + "-shm", path + "-journal"] { unlink(leftover) }
        defer { unlink(partial) }
        try write(image, to: partial, for: path)
        // Folio's creators are locked out and the path was just seen free (or empty): rename, so that no
        // second name of the store is left behind if this process is killed now.
        guard rename(partial, path) == 0 else { throw failure(path) }
        fsync(lock)
        return true
    }

    private static func write(_ image: Data, to partial: String, for path: String) throws {
        let fd = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(path) }
        defer { close(fd) }
        try image.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw failure(path) }
                offset += n
            }
        }
        guard fsync(fd) == 0 else { throw failure(path) }
    }

    /// The error for a failed file operation (errno): a full disk says so.
    private static func failure(_ path: String, _ what: String? = nil) -> StoreError {
        let code = errno
        if code == ENOSPC || code == EDQUOT { return .diskFull(path: path) }
        return .cannotOpen(path: path, message: (what ?? "it cannot be created") + ": " + String(cString: strerror(code)))
    }
}
