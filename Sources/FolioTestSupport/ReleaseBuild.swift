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
    public static func executable(_ name: String) -> URL? {
        let root = packageRoot
        let binary = root.appendingPathComponent(".build/release/\(name)")
        guard FileManager.default.isExecutableFile(atPath: binary.path),
            newerSource(than: binary, in: [root.appendingPathComponent("Sources")]) == nil
        else { return nil }
        return binary
    }

    /// The package's root folder, found from this file's own path
    /// (Sources/FolioTestSupport/ReleaseBuild.swift), whoever asks.
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// A file under `paths` (folders, or files) changed after `binary` was
    /// built, or nil when the binary is current.
    public static func newerSource(than binary: URL, in paths: [URL]) -> String? {
        guard let built = modified(binary) else { return binary.path }
        for path in paths {
            if let changed = modified(path), changed > built, !isFolder(path) { return path.path }
            let files = FileManager.default.enumerator(at: path, includingPropertiesForKeys: nil)
            while let source = files?.nextObject() as? URL {
                if let changed = modified(source), changed > built { return source.path }
            }
        }
        return nil
    }

    private static func isFolder(_ url: URL) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &folder) && folder.boolValue
    }

    private static func modified(_ url: URL) -> Date? {
        try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
    }
}
