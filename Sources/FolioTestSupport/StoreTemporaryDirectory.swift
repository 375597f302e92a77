import Foundation

/// A fresh directory under the system's temporary directory, removed on deinit.
///
///     let dir = try StoreTemporaryDirectory()
///     let path = dir.path("zoo.sqlite")
public final class StoreTemporaryDirectory: Sendable {
    /// The directory's URL.
    public let url: URL

    /// Creates the directory.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("folio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// A path for a file inside the directory.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Every file in the directory with its bytes, to show that nothing was
    /// written, created or removed (stricter than comparing digests).
    ///
    ///     let before = dir.snapshot()
    ///     ...
    ///     #expect(dir.snapshot() == before)
    public func snapshot(excluding excluded: Set<String> = []) -> [String: Data] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        var files: [String: Data] = [:]
        for name in names where !excluded.contains(name) { files[name] = FileManager.default.contents(atPath: path(name)) ?? Data() }
        return files
    }
}
