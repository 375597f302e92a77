import FolioLocking
import FolioStore
import Foundation

/// The persistent section cache: a named file holding a fetch's rows in
/// order (IDs and key values), valid only for the same request on the same
/// store at the same history position. A relaunch with the same name then
/// draws its first screen from the file's section table and row IDs, and
/// loads the keys off the main actor; any change seen
/// by a controller deletes the file.
///
/// ```swift
/// ResultsCache.directory = URL(fileURLWithPath: "/tmp/caches")
/// ResultsCache.delete(name: "Animals")
/// ```
public enum ResultsCache {
    private static let location = LockedValue<URL?>(nil)

    /// Where cache files live: `$XDG_CACHE_HOME/folio/results` (or
    /// `~/.cache/folio/results`) unless set.
    ///
    /// ```swift
    /// ResultsCache.directory = URL(fileURLWithPath: NSTemporaryDirectory())
    /// ```
    public static var directory: URL {
        get {
            if let url = location.withLock({ $0 }) { return url }
            let environment = ProcessInfo.processInfo.environment
            let base =
                environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
                ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".cache")
            return base.appendingPathComponent("folio/results")
        }
        set { location.withLock { $0 = newValue } }
    }

    static func file(_ name: String) -> URL {
        let safe = String(
            name.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" ? Character($0) : "_" })
        return directory.appendingPathComponent(safe + ".frc")
    }

    /// Removes one cache, or all of them when `name` is nil.
    ///
    /// ```swift
    /// ResultsCache.delete(name: nil)
    /// ```
    public static func delete(name: String?) {
        if let name {
            try? FileManager.default.removeItem(at: file(name))
        } else {
            for url in (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
            where url.pathExtension == "frc" {
                try? FileManager.default.removeItem(at: url)
            }
        }
    }

    /// The text header that must match for a cache to be used.
    static func header<E>(_ plan: KeyPlan<E>, context: ObjectContext) -> String? {
        // The identifier tells a store made again at the same path, at the same position, from the one cached.
        guard let path = context.storePath, let identifier = try? context.storeIdentifier(),
            let generation = try? context.storeGeneration()
        else { return nil }
        return "folio-results-cache 3\n\(path)\n\(identifier)\n\(generation)\n\(plan.fingerprint)\n"
    }
}
