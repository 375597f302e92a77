import Foundation

/// The file descriptors this process has open on a store's files (the
/// database, its `-wal` and `-shm`), read from `/proc/self/fd`: every open
/// SQLite connection holds at least the database file, so an empty answer
/// means no connection to the store is left.
///
/// ```swift
/// #expect(StoreFileDescriptors.open(on: path).isEmpty, "a connection outlived its container")
/// ```
public enum StoreFileDescriptors {
    /// The open descriptors on `path`'s files, as "fd → file" lines.
    public static func open(on path: String) -> [String] {
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let files: Set<String> = [real, real + "-wal", real + "-shm", real + "-journal"]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.sorted().compactMap { fd in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"),
                files.contains(target)
            else { return nil }
            return "\(fd) → \(target)"
        }
    }
}
