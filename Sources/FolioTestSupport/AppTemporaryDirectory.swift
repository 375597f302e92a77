import Foundation

/// A fresh folder for one test's stores, removed when the value goes away.
///
/// ```swift
/// let folder = try AppTemporaryDirectory()
/// let store = folder.path("planets.sqlite")
/// ```
public final class AppTemporaryDirectory: Sendable {
    /// The folder.
    public let url: URL

    /// Makes a new, empty folder under the system's temporary directory.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("folio-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the folder.
    public func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
