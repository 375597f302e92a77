import FolioPostgres
import FolioStore
import Foundation

/// Where an app keeps its store: `--store PATH` or `--store postgresql://…`
/// (a PostgreSQL database, shared by every machine that names it), else
/// `$FOLIO_STORE` (either kind), else `$XDG_DATA_HOME/folio/<app>.sqlite`,
/// else `~/.local/share/folio/<app>.sqlite`.
///
/// ```swift
/// let url = try StoreLocation.resolve(app: "planets", explicitPath: nil,
///                                     environment: ["HOME": "/home/ann"])
/// // /home/ann/.local/share/folio/planets.sqlite
/// ```
public enum StoreLocation {
    /// The store file for `app`; creates the folder that holds it.
    ///
    /// Throws ``AppError/store(path:message:)`` when the folder cannot be made,
    /// ``AppError/usage(message:)`` for an empty `explicitPath`.
    public static func resolve(app: String, explicitPath: String?, environment: [String: String]) throws -> URL {
        if explicitPath?.isEmpty == true { throw AppError.usage(message: "--store needs a path; it was given an empty one") }
        if let server = explicitPath ?? environment["FOLIO_STORE"], StoreDescription.isPostgreSQLURI(server) {
            guard let url = URL(string: server), url.scheme != nil else {
                throw AppError.usage(message: "--store \(PGDisplay.redacted(server)) is not a valid PostgreSQL connection URI")
            }
            return url
        }
        let url = path(app: app, explicitPath: explicitPath, environment: environment)
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw AppError.store(path: url.path, message: "cannot create the folder \(folder.path): \(folderFailure(error, folder))")
        }
        return url
    }

    /// Why a folder could not be made, in the system's words.
    private static func folderFailure(_ error: any Error, _ folder: URL) -> String {
        if AppError.isOnReadOnlyMount(folder.path) { return "the file system is mounted read-only" }
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying?.code, underlying?.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(code))) }
        return error.localizedDescription
    }

    /// The store file for `app` without touching the file system (an empty
    /// `explicitPath` is refused by ``resolve(app:explicitPath:environment:)``).
    ///
    /// `StoreLocation.path(app: "zoo", explicitPath: "z.sqlite", environment: [:])` is `./z.sqlite`.
    public static func path(app: String, explicitPath: String?, environment: [String: String]) -> URL {
        if let explicitPath = explicitPath ?? environment["FOLIO_STORE"].flatMap({ $0.isEmpty ? nil : $0 }), !explicitPath.isEmpty {
            let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            return URL(fileURLWithPath: explicitPath, relativeTo: cwd).standardizedFileURL
        }
        return dataHome(environment).appendingPathComponent("folio/\(app).sqlite")
    }

    /// `$XDG_DATA_HOME` when set to an absolute path (as the XDG spec asks), else `~/.local/share`.
    public static func dataHome(_ environment: [String: String]) -> URL {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share", isDirectory: true)
    }

    /// Whether `url` names a database server rather than a file.
    public static func isServer(_ url: URL) -> Bool { url.scheme == "postgresql" || url.scheme == "postgres" }

    /// How messages name the store: the file's path, or the server's URI without its password.
    public static func displayName(_ url: URL) -> String {
        isServer(url) ? PGDisplay.redacted(url.absoluteString) : url.path
    }
}
