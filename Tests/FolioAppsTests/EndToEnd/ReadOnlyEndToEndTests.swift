import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// Finding 5: a write-protected store opens in the app read-only: the
    /// hint bar says so, a delete explains why it cannot be done and changes
    /// nothing, and every message names only options that exist.
    @Suite struct ReadOnlyEndToEndTests {
        /// `setpriv` to nobody, whom file permissions bind (root ignores them); nil when there is no way.
        static let unprivileged: [String]? = {
            let setpriv = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
            if getuid() != 0 { return [] }
            guard FileManager.default.isExecutableFile(atPath: setpriv[0]),
                (try? AppProcess.run(URL(fileURLWithPath: setpriv[0]), Array(setpriv.dropFirst()) + ["/bin/true"]))?.status == 0
            else { return nil }
            return setpriv
        }()

        /// A store of `app` made writable, then protected as `folderMode` says (its file always 0444).
        func protectedStore(_ app: String, _ root: AppTemporaryDirectory, folderMode: Int) throws -> String {
            let folder = root.url.appendingPathComponent("\(app)-\(String(folderMode, radix: 8))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let store = folder.appendingPathComponent("\(app).sqlite").path
            #expect(try AppProcess.run(try AppProcess.folioBinary(), [app, "list", "--store", store]).status == 0)
            chmod(store, 0o444)
            chmod(folder.path, mode_t(folderMode))
            return store
        }

        func launch(_ arguments: [String]) throws -> PtyApp {
            let prefix = Self.unprivileged ?? []
            let binary = try AppProcess.folioBinary()
            guard let first = prefix.first else { return try PtyApp(binary, arguments, columns: 80, rows: 24) }
            return try PtyApp(URL(fileURLWithPath: first), Array(prefix.dropFirst()) + [binary.path] + arguments, columns: 80, rows: 24)
        }

        func run(_ arguments: [String]) throws -> AppProcess.Result {
            let prefix = Self.unprivileged ?? []
            let binary = try AppProcess.folioBinary()
            guard let first = prefix.first else { return try AppProcess.run(binary, arguments) }
            return try AppProcess.run(URL(fileURLWithPath: first), Array(prefix.dropFirst()) + [binary.path] + arguments)
        }

        @Test(
            .enabled(if: unprivileged != nil, "no way to run folio as a user that file permissions bind"),
            arguments: [("planets", "Mercury", 0o555), ("zoo", "West Indian Manatee", 0o777), ("guides", "Cannon Rush", 0o555)])
        func theAppShowsItReadOnlyAndExplainsWhatItCannotDo(app: String, row: String, folderMode: Int) throws {
            let root = try AppTemporaryDirectory()
            let store = try protectedStore(app, root, folderMode: folderMode)
            defer { chmod(URL(fileURLWithPath: store).deletingLastPathComponent().path, 0o755) }
            let before = try run([app, "list", "--store", store]).stdout
            let screen = try launch([app, "--store", store])
            defer { screen.close() }
            try screen.waitFor(row)
            try screen.waitFor("read-only")
            try screen.press("d")
            try screen.waitUntil("the reason") { $0.state["alert"] == "Read-Only" }
            #expect(screen.words.contains("write-protected"), "\(screen.text)")
            try screen.press("Enter")
            #expect(try run([app, "list", "--store", store]).stdout == before, "nothing changed")

            let add = app == "zoo" ? ["add", "--name", "Romulus", "--habitat", "h", "--order", "o"] : ["add", "Romulus"]
            let added = try run([app] + add + ["--store", store])
            #expect(added.status == 1 && added.stderr.contains("write-protected") && added.stderr.contains("`list`"), "\(added)")
            #expect(!added.stderr.contains("open it read-only"), "no option that does not exist: \(added)")
        }
    }
}
