import Foundation

/// Where a container's store lives: a file, memory, or a database server
/// (`.postgreSQL(…)` from the FolioPostgres library).
///
///     let container = try PersistentContainer(schema: schema, store: .file("/tmp/planets.sqlite"))
///     let shared = try PersistentContainer(schema: schema, store: .postgreSQL("postgresql://ann@db/folio"))
public struct StoreDescription: Sendable {
    enum Location: Sendable {
        case file(String)
        case memory
        case server(any StoreServer)
        /// An SQLite file that is a replica of a server's store.
        case replica(String, any StoreReplica)
    }

    let location: Location

    /// A Folio store in the SQLite file at `path`.
    public static func file(_ path: String) -> StoreDescription { StoreDescription(location: .file(path)) }

    /// A store in memory, for this container only.
    public static var inMemory: StoreDescription { StoreDescription(location: .memory) }

    /// A store on a database server, opened through `server`.
    package static func server(_ server: any StoreServer) -> StoreDescription { StoreDescription(location: .server(server)) }

    /// A replica of a server's store in the SQLite file at `path`, synced by `replica`.
    package static func replica(path: String, _ replica: any StoreReplica) -> StoreDescription {
        StoreDescription(location: .replica(path, replica))
    }

    /// The file's path (a replica's own file), nil in memory and on a server.
    public var path: String? {
        switch location {
        case .file(let path), .replica(let path, _): path
        case .memory, .server: nil
        }
    }

    /// The same store with a file's symbolic links followed: a link to a
    /// store opens that store, whose logs and lock live beside it. A link
    /// to nothing is kept, for the open to refuse by name.
    func followingLinks() -> StoreDescription {
        guard case .file(let path) = location, let resolved = realpath(path, nil) else { return self }
        defer { free(resolved) }
        return .file(String(cString: resolved))
    }

    /// How messages name the store: the path, ":memory:", or the server's address without secrets.
    public var displayName: String {
        switch location {
        case .file(let path): path
        case .memory: ":memory:"
        case .server(let server): server.displayName
        case .replica(let path, let replica): "\(path) (replica of \(replica.displayName))"
        }
    }
}

/// A database server a container's connections are opened to; each
/// connection is a ``StoreBackend`` like SQLite's, and a change feed of
/// its own wakes the container when others save.
package protocol StoreServer: Sendable {
    /// The server and database as messages name them (no password).
    var displayName: String { get }
    /// Opens a connection for `schema` (whose tables ``StoreBackend/prepare(_:)``
    /// creates on the first). A `readOnly` connection never writes.
    func connect(schema: Schema, readOnly: Bool, busyTimeoutMilliseconds: Int32) throws -> StoreBackend
}
