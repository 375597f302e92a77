import Dispatch
import Foundation

extension PersistentContainer {
    /// Waits, off the caller's thread, until no other process holds the
    /// write lock of the store file `store` names, or `busyTimeout` seconds
    /// pass. Opening a store for writing takes that lock for a moment, so a
    /// screen that opens a store calls this first and stays responsive
    /// while another program writes. It never throws: the open that follows
    /// reports whatever is wrong (no file, a locked store, no permission).
    /// A server or in-memory store returns at once.
    ///
    ///     await PersistentContainer.waitUntilWritable(.file(path))
    ///     let container = try PersistentContainer(schema: schema, store: .file(path))
    public static func waitUntilWritable(_ store: StoreDescription, busyTimeout: Double = 5) async {
        guard let path = store.path, FileManager.default.fileExists(atPath: path) else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global(qos: .userInitiated).async {
                defer { continuation.resume() }
                guard let connection = try? SQLiteConnection(path: path, busyTimeoutMilliseconds: Int32(busyTimeout * 1000)) else { return }
                if (try? connection.withDeadline(connection.deadlineFromNow) { try connection.execute("BEGIN IMMEDIATE") }) != nil {
                    try? connection.execute("ROLLBACK")
                }
            }
        }
    }
}
