import FolioTestSupport
import Foundation
import Testing

/// One app's store (a file in a temporary folder, or a database on the
/// throwaway PostgreSQL server), the real binary, and helpers to open the
/// app in tmux and to change or read the store from "another terminal".
struct FolioBinary {
    let folder: AppTemporaryDirectory
    let binary: URL
    let app: String
    /// What `--store` names: the file's path or the server's URI.
    let store: String

    init(_ app: String, on backend: TestBackend = .sqlite) throws {
        folder = try AppTemporaryDirectory()
        binary = try AppProcess.folioBinary()
        self.app = app
        store = backend == .sqlite ? folder.path("\(app).sqlite") : try PostgresCluster.shared().makeDatabase(prefix: app)
    }

    /// Opens the app in an 80×24 terminal and waits for `ready`.
    func open(waitingFor ready: String, width: Int = 90, height: Int = 30) throws -> AppTerminal {
        let term = try AppTerminal([binary.path, app, "--store", store], width: width, height: height)
        try term.waitFor(ready)
        return term
    }

    /// Starts the app on a pty driven directly (no tmux) and waits for `ready`.
    func launch(waitingFor ready: String, columns: Int = 80, rows: Int = 24) throws -> PtyApp {
        let app = try PtyApp(binary, [app, "--store", store], columns: columns, rows: rows)
        try app.waitFor(ready)
        return app
    }

    /// Runs `folio <app> ARGS --store <store>` as another process; expects success.
    @discardableResult
    func run(_ arguments: String..., expecting status: Int32 = 0) throws -> AppProcess.Result {
        let result = try AppProcess.run(binary, [app] + arguments + ["--store", store])
        #expect(result.status == status, "\(result)")
        return result
    }

    /// `list`'s lines, trimmed.
    func listed() throws -> [String] {
        try run("list").stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The IDs in `list --json`, as "Entity/ID".
    func ids(_ entity: String) throws -> Set<String> {
        Set(try sections().flatMap(\.rows).compactMap { ($0["id"] as? String).map { "\(entity)/\($0)" } })
    }

    /// `list --json`, decoded: (section name, rows).
    func sections() throws -> [(name: String, rows: [[String: Any]])] {
        let result = try run("list", "--json")
        let decoded = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        return decoded.map { (($0["name"] as? String) ?? "", ($0["rows"] as? [[String: Any]]) ?? []) }
    }
}

extension String {
    /// The screen's lines, trimmed.
    var lines: [String] {
        split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
