import Dispatch
import Glibc

/// Calls back when the store's database or write-ahead log file is written,
/// through inotify on their directory.
///
/// A commit in WAL mode appends to the `-wal` file with `write(2)`, which
/// inotify reports at once; the directory (rather than the file) is watched
/// so that a log created, removed by the last connection's close, or
/// recreated later is still seen. Events for other files are ignored. The
/// shared-memory index is written through `mmap`, which inotify does not
/// see, so a wake can arrive a moment before the commit is visible; the
/// history follower reads once more shortly after a wake that found nothing.
///
///     let watcher = SQLiteStoreWatcher(path: "/tmp/zoo.sqlite", queue: queue) { poll() }
final class SQLiteStoreWatcher {
    private let source: DispatchSourceRead

    /// Starts watching; nil when inotify cannot watch the directory.
    init?(path: String, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        guard inotify_add_watch(fd, directory, UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO)) >= 0 else {
            close(fd)
            return nil
        }
        let names: Set<[UInt8]> = [Array(base.utf8), Array((base + "-wal").utf8)]
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler {
            if SQLiteStoreWatcher.drain(fd, matching: names) { onChange() }
        }
        source.setCancelHandler { close(fd) }
        source.resume()
    }

    deinit { cancel() }

    /// Stops watching and closes the descriptor.
    func cancel() {
        if !source.isCancelled { source.cancel() }
    }

    /// Reads every pending event; true if one names a watched file (or events were lost).
    private static func drain(_ fd: Int32, matching names: Set<[UInt8]>) -> Bool {
        var hit = false
        let size = 16 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer, size)
            if count <= 0 { break }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then `len` bytes of NUL-padded name.
            while offset + 16 <= count {
                let mask = buffer.load(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                if mask & UInt32(IN_Q_OVERFLOW) != 0 { hit = true }
                if !hit, length > 0 {
                    let name = UnsafeRawBufferPointer(start: buffer + offset + 16, count: length).prefix { $0 != 0 }
                    if names.contains(Array(name)) { hit = true }
                }
                offset += 16 + length
            }
        }
        return hit
    }
}
