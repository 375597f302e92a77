import Foundation
import Testing

/// The listing of each library product's public API (api/, kept current by
/// `scripts/api-check`) holds no internals: what the package's own layers,
/// tests and tools share is `package`.
@Suite struct PublicSurfaceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let products = ["FolioStore", "FolioChanges", "FolioResults", "FolioPostgres", "FolioTable", "FolioAdapters", "FolioTerminal"]

    @Test func everyLibraryProductHasAListing() throws {
        for product in Self.products {
            let listing = try String(contentsOf: Self.root.appendingPathComponent("api/\(product).txt"), encoding: .utf8)
            #expect(!listing.isEmpty, "api/\(product).txt is empty")
        }
    }

    @Test(arguments: [
        "checkInvariants", "storeGeneration", "storeIdentifier", "relationshipsRead",
        "properties(along:", "fetchKeys", "FetchedKeys",
    ])
    func internalsAreNotPublic(name: String) throws {
        for product in Self.products {
            let url = Self.root.appendingPathComponent("api/\(product).txt")
            guard let listing = try? String(contentsOf: url, encoding: .utf8) else {
                Issue.record("no listing api/\(product).txt")
                continue
            }
            let lines = listing.split(separator: "\n").filter { $0.contains(name) }
            #expect(lines.isEmpty, "public in \(product): \(lines)")
        }
    }
}
