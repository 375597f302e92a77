import BuildGuideApp
import FolioTestSupport
import Foundation
import PlanetsApp
import Testing
import ZootasticApp

@testable import FolioAppSupport

@Suite struct StoreLocationTests {
    @Test func explicitPathWins() {
        let url = StoreLocation.path(app: "planets", explicitPath: "/tmp/a/b.sqlite", environment: ["XDG_DATA_HOME": "/x"])
        #expect(url.path == "/tmp/a/b.sqlite")
    }

    @Test func xdgDataHomeThenHome() {
        #expect(
            StoreLocation.path(app: "zoo", explicitPath: nil, environment: ["XDG_DATA_HOME": "/data", "HOME": "/h"]).path
                == "/data/folio/zoo.sqlite")
        #expect(
            StoreLocation.path(app: "zoo", explicitPath: nil, environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"]).path
                == "/h/.local/share/folio/zoo.sqlite")
        #expect(
            StoreLocation.path(app: "guides", explicitPath: nil, environment: ["HOME": "/h"]).path
                == "/h/.local/share/folio/guides.sqlite")
    }

    @Test func resolveCreatesTheFolder() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("folio-loc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let url = try StoreLocation.resolve(app: "planets", explicitPath: nil, environment: ["XDG_DATA_HOME": base.path])
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path, isDirectory: &isFolder))
        #expect(isFolder.boolValue)
    }
}

/// Finding 10: `--store ""` (an unset shell variable, say) is a usage error,
/// never the real default store.
@MainActor
@Suite struct EmptyStorePathTests {
    @Test func anEmptyStorePathIsAUsageErrorAndTouchesNoStore() throws {
        let home = try AppTemporaryDirectory()
        for arguments in [
            ["planets", "list", "--store", ""], ["zoo", "add", "--name", "Okapi", "--habitat", "Forest", "--order", "X", "--store="],
            ["guides", "--store", ""],
        ] {
            let console = Console.capturing()
            let outcome = FolioCommand(
                apps: [PlanetsApp.self, ZootasticApp.self, BuildGuideApp.self], console: console,
                environment: ["HOME": home.url.path]
            ).run(arguments)
            #expect(outcome == .exit(.usage), "\(arguments)")
            #expect(console.errorOutput.contains("--store needs a path"), "\(console.errorOutput)")
        }
        #expect(!FileManager.default.fileExists(atPath: home.path(".local/share/folio")))
    }
}
