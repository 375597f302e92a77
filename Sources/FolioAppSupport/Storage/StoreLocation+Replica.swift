import Foundation

extension StoreLocation {
    /// The replica file for a `postgresql://` store: `--replica PATH`, else
    /// `$FOLIO_REPLICA`, else none. A replica is a local SQLite copy of the
    /// server's store that works offline and syncs in the background.
    ///
    /// Throws ``AppError/usage(message:)`` when a replica is named beside a
    /// store that is a file, when the path is empty, a folder, or a URI, and
    /// ``AppError/store(path:message:)`` when its folder cannot be made.
    ///
    /// ```swift
    /// let replica = try StoreLocation.resolveReplica(explicitPath: "zoo-replica.sqlite", store: serverURL, environment: [:])
    /// // file:///home/ann/zoo-replica.sqlite
    /// ```
    public static func resolveReplica(explicitPath: String?, store: URL, environment: [String: String]) throws -> URL? {
        let option = explicitPath != nil ? "--replica" : "FOLIO_REPLICA"
        if explicitPath?.isEmpty == true { throw AppError.usage(message: "--replica needs a path; it was given an empty one") }
        guard let path = explicitPath ?? environment["FOLIO_REPLICA"].flatMap({ $0.isEmpty ? nil : $0 }) else { return nil }
        guard isServer(store) else {
            throw AppError.usage(
                message: "\(option) keeps a local copy of a PostgreSQL store, but the store is the file "
                    + "\(AppError.shown(store.path, limit: 4096)); give --store postgresql://… with it, or leave \(option) out")
        }
        if path.contains("://") {
            throw AppError.usage(message: "\(option) \(AppError.shown(path, limit: 4096)) is a URI; it takes the path of a local file")
        }
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let url = URL(fileURLWithPath: path, relativeTo: cwd).standardizedFileURL
        var isFolder: ObjCBool = false
        if path.hasSuffix("/") || (FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue) {
            throw AppError.usage(
                message: "\(option) \(AppError.shown(url.path, limit: 4096)) is a folder; it takes the path of a file "
                    + "(made on first use)")
        }
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw AppError.store(path: url.path, message: "cannot create the folder \(folder.path): \(error.localizedDescription)")
        }
        return url
    }
}
