import Foundation

/// The package's release-built executables, for tests that check what an
/// optimised build does (key paths resolve differently there if resolved by
/// printed text). `scripts/setup` builds them; a test finds one only when it
/// is newer than every source file, so it never tests old code.
///
/// ```swift
/// if let worker = ReleaseBuild.executable("folio-store-worker") { ... }
/// ```
public enum ReleaseBuild {
    /// Whether this is CI, where `scripts/setup` ran, so a missing or stale build must fail the test.
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    /// `.build/release/NAME` when it exists and is newer than everything under `Sources/`.
    public static func executable(_ name: String, file: StaticString = #filePath) -> URL? {
        let root = URL(fileURLWithPath: "\(file)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let binary = root.appendingPathComponent(".build/release/\(name)")
        guard FileManager.default.isExecutableFile(atPath: binary.path), let built = modified(binary) else { return nil }
        let sources = FileManager.default.enumerator(at: root.appendingPathComponent("Sources"), includingPropertiesForKeys: nil)
        while let source = sources?.nextObject() as? URL {
            if let changed = modified(source), changed > built { return nil }
        }
        return binary
    }

    private static func modified(_ url: URL) -> Date? {
        try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
    }
}
