import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Finding 1 in an optimised build, where the getters that key paths print
/// differ from a debug build's: the release `folio-store-worker` resolves
/// key paths written in its own module and in the entities' module, and
/// must agree with this (debug) build; the release `folio` lists Zootastic,
/// whose sections sort by `\Animal.classification?.order`. Both binaries come
/// from `scripts/setup`; without them these tests are skipped, except under CI.
@Suite(.serialized) struct StoreReleaseTests {
    static let worker = ReleaseBuild.executable("folio-store-worker")
    static let folio = ReleaseBuild.executable("folio")

    @Test(.enabled(if: worker != nil || ReleaseBuild.isCI, "no current release build of folio-store-worker: run scripts/setup"))
    func keyPathsResolveInAReleaseBuildAsInDebug() throws {
        let worker = try #require(Self.worker, "no current .build/release/folio-store-worker: run scripts/setup")
        let result = try AppProcess.run(worker, ["keypaths"])
        #expect(result.status == 0, "\(result)")
        var lines: [String: [String]] = [:]
        for line in result.stdout.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            lines[fields[0]] = Array(fields.dropFirst())
        }
        let classificationOrder = ["classification.order"]
        #expect(lines["declared"] == ["commonName"])
        #expect(lines["optional"] == classificationOrder)
        #expect(lines["forced"] == classificationOrder)
        #expect(lines["required"] == ["ship.name"])
        #expect(lines["support-optional"] == classificationOrder)
        #expect(lines["support-forced"] == classificationOrder)
        #expect(lines["support-required"] == ["ship.name"])
        for label in ["computed", "computed-chain"] {
            let refusal = lines[label] ?? []
            #expect(refusal.first == "refused", "\(label): \(refusal)")
            let message = refusal.last ?? ""
            #expect(message.contains("is not a stored property of TestAnimal") && !message.contains("0x"), "\(label): \(message)")
        }
        #expect(lines["computed-chain"]?.last?.contains("TestClassification.order") == true)
        // This (debug) build resolves the entities' module's key paths the same way.
        let debug = StoreTestKeyPaths.report(StoreTestKeyPaths.cases, in: StoreTestSchema.make())
        let release = result.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("support-") }
        #expect(release == debug)
    }

    @Test(.enabled(if: folio != nil || ReleaseBuild.isCI, "no current release build of folio: run scripts/setup"))
    func theReleaseFolioListsZootasticByOrder() throws {
        let folio = try #require(Self.folio, "no current .build/release/folio: run scripts/setup")
        let dir = try StoreTemporaryDirectory()
        let result = try AppProcess.run(folio, ["zoo", "list", "--store", dir.path("zoo.sqlite")])
        #expect(result.status == 0, "\(result)")
        let sections = result.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }
        #expect(sections == ["Chiroptera", "Primates", "Sirenia"], "\(result)")
    }
}
