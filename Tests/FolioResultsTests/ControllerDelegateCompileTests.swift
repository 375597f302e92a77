import FolioTestSupport
import Foundation
import Testing

/// A method written in the extension that declares the conformance, with
/// the entity's types where the protocol has `AnyFetchedResultsController`
/// and `Any`, is a compiler warning: the shape the documentation shows.
@Suite struct ControllerDelegateCompileTests {
    @Test func aNearMissInTheConformingExtensionIsAWarning() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let modules = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("Modules")
        let directory = try StoreTemporaryDirectory()
        let source = directory.path("NearMiss.swift")
        try """
        import Foundation
        import FolioStore
        import FolioResults

        @MainActor final class Shelf {}
        extension Shelf: FetchedResultsControllerDelegate {
            func controllerDidChangeContent(_ controller: FetchedResultsController<ManagedObject>) {}
            func controller(_ controller: AnyFetchedResultsController, didChange anObject: ManagedObject, at indexPath: IndexPath?,
                            for type: ResultsChangeType, newIndexPath: IndexPath?) {}
        }
        """.write(toFile: source, atomically: true, encoding: .utf8)
        let process = try ChildProcess(
            "/usr/bin/env",
            [
                "swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path,
                "-I", root.appendingPathComponent("Sources/CSQLite").path, source,
            ], output: .pipe, errors: .toOutput)
        let text = String(decoding: process.output?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        #expect(process.wait() == 0, "\(text)")
        #expect(text.contains("'controllerDidChangeContent' nearly matches defaulted requirement"), "\(text)")
        #expect(text.contains("'controller(_:didChange:at:for:newIndexPath:)' nearly matches defaulted requirement"), "\(text)")
    }
}
