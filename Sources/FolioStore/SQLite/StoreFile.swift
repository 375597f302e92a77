import CSQLite
import Foundation

/// What is at a store's path, found without changing a byte there: the
/// header is read directly, and the schema through an immutable connection
/// (or a read-only one when a log shows the file is in use), so a foreign
/// file gets no `-wal` or `-shm` beside it.
///
/// A Folio store says so in its header (`PRAGMA application_id`, "Foli")
/// and records its schema's name and tables in `folio_metadata`; a store
/// written before the application id existed is known by that table.
///
///     switch try StoreFile.inspect("/tmp/p.sqlite", for: schema) { case .absent, .empty: ...; case .folio: ... }
package enum StoreFile {
    /// Folio's `PRAGMA application_id`: "Foli" in ASCII.
    static let applicationID: Int32 = 0x466F_6C69

    enum State: Equatable {
        /// No file (or only leftovers of one: a log without its database).
        case absent
        /// A file with nothing in it: zero bytes, or an SQLite database without tables.
        case empty
        /// A Folio store of this schema; `stamped` is false for one made before the application id.
        case folio(stamped: Bool)
    }

    /// Classifies the file at `path` for `schema`.
    ///
    /// Throws ``StoreError/notADatabase(path:)``, ``StoreError/notAFolioStore(path:reason:)``,
    /// ``StoreError/otherSchema(path:stored:expected:)`` or ``StoreError/corrupt(path:message:)``.
    static func inspect(_ path: String, for schema: Schema) throws -> State {
        guard let size = try regularFileSize(path) else { return .absent }
        let logSize = self.size(of: path + "-wal") ?? 0
        if size == 0 && logSize == 0 { return .empty }
        if size > 0 {
            let header = try readHeader(path)
            guard header.count >= 100, header.prefix(16) == Data("SQLite format 3\0".utf8) else {
                throw StoreError.notADatabase(path: path)
            }
            let id = header[68..<72].reduce(Int32(0)) { $0 << 8 | Int32($1) }
            if id != 0 && id != applicationID {
                throw StoreError.notAFolioStore(
                    path: path, reason: "its application id is \(String(format: "0x%08X", id)), another program's")
            }
            // A stamped store of a named schema is known by its header alone, read while others may be writing.
            let code = header[60..<64].reduce(Int32(0)) { $0 << 8 | Int32($1) }
            if id == applicationID, code != 0, schema.name != nil {
                guard code == nameCode(schema.name) else {
                    // The name only for the message: a failed read costs its wording, nothing else.
                    let stored = (try? readSchema(path, mode: .immutable))?.stored?.name.map { "the \($0) schema" }
                    throw StoreError.otherSchema(
                        path: path, stored: stored ?? "another schema",
                        expected: describe(schema.name, Set(schema.entities.map(\.name))))
                }
                // With nobody in it (no log), a newer schema is refused before a connection makes files beside it.
                if logSize == 0, let stored = (try? readSchema(path, mode: .immutable))?.stored { try checkVersion(stored, of: schema) }
                return .folio(stamped: true)
            }
        }
        let contents = try readSchema(path, inUse: logSize > 0)
        // Only Folio's own tables may sit beside a store that has not recorded its schema yet (one being made).
        let foreign = contents.tables.filter { !$0.hasPrefix("folio_") }.sorted()
        guard let stored = contents.stored else {
            if contents.hasMetadata && foreign.isEmpty { return .folio(stamped: contents.applicationID == applicationID) }
            if contents.isBlank {
                // A live log beside an empty database belongs to a program that has it open.
                if logSize > 0 { throw StoreError.notAFolioStore(path: path, reason: "another program has it open") }
                return .empty
            }
            throw StoreError.notAFolioStore(path: path, reason: foreignReason(contents, foreign))
        }
        try checkSchema(stored, of: path, against: schema)
        try checkVersion(stored, of: schema)
        return .folio(stamped: contents.applicationID == applicationID)
    }

    /// A store of a newer version of the schema is refused: this program would not understand it.
    private static func checkVersion(_ stored: StoredSchema, of schema: Schema) throws {
        if stored.version > schema.version { throw StoreError.newerSchema(stored: stored.version, current: schema.version) }
    }

    /// Why an SQLite database without Folio's schema record is not taken for a store.
    private static func foreignReason(_ contents: Contents, _ foreign: [String]) -> String {
        if !foreign.isEmpty { return "it holds another program's tables: " + foreign.prefix(3).joined(separator: ", ") }
        if contents.objects > contents.tables.count { return "it holds another program's views, indexes or triggers" }
        if contents.userVersion != 0 { return "another program set its user version to \(contents.userVersion)" }
        if contents.applicationID == applicationID { return "it has Folio's application id but no Folio metadata" }
        return "it is an SQLite database of another program"
    }

    /// The size of the regular file at `path` (following symbolic links), nil
    /// when nothing is there. Anything else there — a folder, a FIFO, a
    /// device, a socket, a link to nothing — is refused: a store is never put
    /// in its place, and opening a FIFO or a device could block or read
    /// another thing's data.
    static func regularFileSize(_ path: String) throws -> Int? {
        var link = stat()
        guard lstat(path, &link) == 0 else {
            if errno == ENOENT { return nil }
            if errno == ENOTDIR { throw StoreError.cannotOpen(path: path, message: "a part of its path is not a folder") }
            throw StoreError.cannotOpen(path: path, message: "it cannot be examined: " + String(cString: strerror(errno)))
        }
        var target = link
        if link.st_mode & S_IFMT == S_IFLNK {
            guard stat(path, &target) == 0 else {
                throw StoreError.notAFolioStore(path: path, reason: "it is a symbolic link to nothing that exists")
            }
        }
        switch target.st_mode & S_IFMT {
        case S_IFREG: return Int(target.st_size)
        case S_IFDIR: throw StoreError.notAFolioStore(path: path, reason: "it is a folder")
        case S_IFIFO: throw StoreError.notAFolioStore(path: path, reason: "it is a FIFO (a named pipe)")
        case S_IFCHR, S_IFBLK: throw StoreError.notAFolioStore(path: path, reason: "it is a device")
        case S_IFSOCK: throw StoreError.notAFolioStore(path: path, reason: "it is a socket")
        default: throw StoreError.notAFolioStore(path: path, reason: "it is not a regular file")
        }
    }

    /// The size of the file at `path` in bytes, nil when there is none (for the logs beside a store).
    static func size(of path: String) -> Int? {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue
    }

    /// Throws unless `path` holds a Folio store of `schema` (an absent or empty file is no store).
    static func requireStore(at path: String, for schema: Schema) throws {
        switch try inspect(path, for: schema) {
        case .folio: return
        case .absent, .empty: throw StoreError.cannotOpen(path: path, message: "there is no Folio store there")
        }
    }

    /// The schema's name as the header's `user_version`: FNV-1a, never 0 (0 is "no name").
    static func nameCode(_ name: String?) -> Int32 {
        guard let name else { return 0 }
        var hash: UInt32 = 2_166_136_261
        for byte in name.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int32(bitPattern: hash == 0 ? 1 : hash)
    }

    private static func describe(_ name: String?, _ entities: Set<String>) -> String {
        name.map { "the \($0) schema" } ?? "a schema of " + entities.sorted().joined(separator: ", ")
    }

    /// A store of another schema is refused: by name when both have one, else
    /// when they share no entity (a store that only gained entities migrates).
    package static func checkSchema(_ stored: StoredSchema, of path: String, against schema: Schema) throws {
        let mine = Set(schema.entities.map(\.name)), theirs = Set(stored.tables.keys)
        let sameName = stored.name != nil && stored.name == schema.name
        let clash = stored.name != nil && schema.name != nil ? !sameName : !theirs.isEmpty && mine.isDisjoint(with: theirs)
        if clash {
            throw StoreError.otherSchema(path: path, stored: describe(stored.name, theirs), expected: describe(schema.name, mine))
        }
    }

    /// Through SQLite's file layer: closing a descriptor of our own would drop
    /// this process's locks on the file (see ``SQLiteFileHeader``).
    private static func readHeader(_ path: String) throws -> Data {
        guard let bytes = SQLiteFileHeader.read(path, count: 100) else {
            throw StoreError.cannotOpen(path: path, message: "it cannot be read")
        }
        return Data(bytes)
    }

    /// The tables, the application id and Folio's metadata, read without
    /// changing anything: immutable when no log holds newer pages, otherwise
    /// read-only beside the program that has the file open. An immutable
    /// read that fails may have met a checkpoint of a program that opened
    /// the file meanwhile; it is read again beside that program.
    private static func readSchema(_ path: String, inUse: Bool) throws -> Contents {
        if !inUse {
            do { return try readSchema(path, mode: .immutable) } catch {
                // Only a writer that came meanwhile (its log is there now) is a reason to read again beside it;
                // otherwise the file itself is at fault, and a read-only connection would make files beside it.
                guard size(of: path + "-wal") != nil else { throw error }
            }
        }
        return try readSchema(path, mode: .readOnly)
    }

    /// What an SQLite file holds, as far as telling a store from another program's file needs.
    struct Contents {
        var tables: Set<String>
        /// Every table, view, index and trigger.
        var objects: Int
        var applicationID: Int32
        var userVersion: Int64
        /// Folio's schema record, if it has one.
        var stored: StoredSchema?
        var hasMetadata: Bool { tables.contains("folio_metadata") }

        /// Nothing anyone put there: no schema objects and no header values set.
        var isBlank: Bool { objects == 0 && applicationID == 0 && userVersion == 0 }
    }

    private static func readSchema(_ path: String, mode: SQLiteConnection.Mode) throws -> Contents {
        let connection = try SQLiteConnection(path: path, busyTimeoutMilliseconds: 2000, mode: mode)
        var tables: Set<String> = [], objects = 0
        for row in try connection.rows("SELECT type, name FROM sqlite_master") {
            objects += 1
            if case .text("table") = row[0], case .text(let name) = row[1] { tables.insert(name) }
        }
        func integer(_ pragma: String) throws -> Int64 {
            if case .integer(let n)? = try connection.rows("PRAGMA \(pragma)").first?.first { return n }
            return 0
        }
        var contents = Contents(
            tables: tables, objects: objects, applicationID: Int32(truncatingIfNeeded: try integer("application_id")),
            userVersion: try integer("user_version"))
        guard tables.contains("folio_metadata") else { return contents }
        guard case .text(let json)? = try connection.rows("SELECT value FROM folio_metadata WHERE key = 'schema'").first?.first else {
            return contents
        }
        guard let stored = try? JSONDecoder().decode(StoredSchema.self, from: Data(json.utf8)) else {
            throw StoreError.notAFolioStore(path: path, reason: "its Folio schema record cannot be read")
        }
        contents.stored = stored
        return contents
    }
}
