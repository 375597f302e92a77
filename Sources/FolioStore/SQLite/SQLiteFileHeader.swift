import CSQLite

/// The first bytes of a database file, read through SQLite's own file layer.
///
/// A process's POSIX locks on a file go away when it closes *any*
/// descriptor of that file. Reading the header with a descriptor of our own
/// and closing it dropped the locks of every connection this process had
/// open on the store; another process closing then took itself for the last
/// connection and deleted the log and its index under them (their next
/// reads failed with disk I/O errors). SQLite's unix layer keeps such a
/// descriptor open until the process's locks on the file are released.
///
///     let head = SQLiteFileHeader.read("/tmp/zoo.sqlite", count: 16)
enum SQLiteFileHeader {
    /// Up to `count` bytes from the start of the file (fewer when it is
    /// shorter, zeros past its end), or nil when it cannot be opened.
    static func read(_ path: String, count: Int) -> [UInt8]? {
        guard let vfs = sqlite3_vfs_find(nil), let open = vfs.pointee.xOpen else { return nil }
        let file = UnsafeMutableRawPointer.allocate(byteCount: Int(vfs.pointee.szOsFile), alignment: 16)
            .bindMemory(to: sqlite3_file.self, capacity: 1)
        defer { file.deallocate() }
        file.pointee.pMethods = nil
        // The VFS opens with O_NOFOLLOW and expects the name its xFullPathname
        // gives (links resolved), as sqlite3_open passes it: a link to a store
        // would not open. Zeros after the name end its (empty) URI parameters.
        let capacity = Int(vfs.pointee.mxPathname) + 1
        var name = [CChar](repeating: 0, count: capacity + 2)
        guard let fullPathname = vfs.pointee.xFullPathname, fullPathname(vfs, path, Int32(capacity), &name) & 0xFF == SQLITE_OK else {
            return nil
        }
        var flags: Int32 = 0
        let opened = open(vfs, name, file, SQLITE_OPEN_READONLY | SQLITE_OPEN_MAIN_DB, &flags)
        defer { if let methods = file.pointee.pMethods { _ = methods.pointee.xClose?(file) } }
        guard opened == SQLITE_OK, let methods = file.pointee.pMethods, let read = methods.pointee.xRead else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        var size: sqlite3_int64 = 0
        _ = methods.pointee.xFileSize?(file, &size)
        let rc = bytes.withUnsafeMutableBytes { read(file, $0.baseAddress, Int32(count), 0) }
        // SQLITE_IOERR_SHORT_READ (a macro Swift does not import): shorter than `count`, zero-filled.
        guard rc == SQLITE_OK || rc == SQLITE_IOERR | (2 << 8) else { return nil }
        return Array(bytes.prefix(min(count, Int(size))))
    }
}
