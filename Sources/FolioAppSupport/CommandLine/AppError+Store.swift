import FolioStore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension AppError {
    /// `error`, raised by the store at `url`, as a command reports it
    /// (``store(path:message:)``), naming the cause where the store's own
    /// words do not: SQLite says "unable to open database file", or that the
    /// file is write-protected, when the file system is mounted read-only.
    ///
    /// ```swift
    /// catch let error as StoreError { throw AppError.store(error, at: url) }
    /// // cannot use the store at /mnt/p.sqlite: it is on a file system mounted read-only; …
    /// ```
    package static func store(_ error: StoreError, at url: URL) -> AppError {
        .store(path: StoreLocation.displayName(url), message: reason(error, at: url))
    }

    static func reason(_ error: StoreError, at url: URL) -> String {
        guard !StoreLocation.isServer(url), couldBeTheFileSystem(error), isOnReadOnlyMount(url.path) else { return error.reason }
        return FileManager.default.fileExists(atPath: url.path)
            ? "it is on a file system mounted read-only, so nothing can be saved to it (reading it works)"
            : "its folder is on a file system mounted read-only, so a new store cannot be made there"
    }

    /// Failures to open or write that a read-only mount causes.
    private static func couldBeTheFileSystem(_ error: StoreError) -> Bool {
        switch error {
        case .cannotOpen, .readOnly: true
        // SQLITE_READONLY and SQLITE_CANTOPEN, with their extended codes.
        case .sqlite(let code, _, _): code & 0xFF == 8 || code & 0xFF == 14
        default: false
        }
    }

    /// Whether `path`, or the nearest folder above it that exists, is on a file system mounted read-only.
    package static func isOnReadOnlyMount(_ path: String) -> Bool {
        var current = URL(fileURLWithPath: path)
        while true {
            var info = statvfs()
            if statvfs(current.path, &info) == 0 { return info.f_flag & UInt(ST_RDONLY) != 0 }
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { return false }
            current = parent
        }
    }
}
