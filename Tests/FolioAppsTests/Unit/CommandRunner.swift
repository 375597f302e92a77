import BuildGuideApp
import FolioAppSupport
import FolioTestSupport
import Foundation
import MyLocationsApp
import PlanetsApp
import ZootasticApp

/// Runs `folio` subcommands in-process against one temporary store per app.
@MainActor
struct CommandRunner {
    let folder: AppTemporaryDirectory

    init() throws { folder = try AppTemporaryDirectory() }

    func store(_ app: String) -> String { folder.path("\(app).sqlite") }

    /// Runs `folio ARGS --store <app store>` and returns the outcome and console.
    func run(_ arguments: String...) -> (status: FolioCommand.Outcome, out: String, err: String) {
        run(arguments: arguments)
    }

    /// As `run(_:)`, with the arguments in an array.
    func run(arguments: [String]) -> (status: FolioCommand.Outcome, out: String, err: String) {
        let console = Console.capturing()
        let command = FolioCommand(
            apps: [PlanetsApp.self, ZootasticApp.self, MyLocationsApp.self, BuildGuideApp.self],
            console: console, environment: ["HOME": folder.url.path])
        let app = arguments.first ?? ""
        let outcome = command.run(arguments + ["--store", store(app)])
        return (outcome, console.output, console.errorOutput)
    }

    /// `list --json` of an app, decoded: section name → rows.
    func sections(_ app: String) throws -> [(name: String, rows: [[String: Any]])] {
        let result = run(app, "list", "--json")
        let decoded = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [[String: Any]] ?? []
        return decoded.map { (($0["name"] as? String) ?? "", ($0["rows"] as? [[String: Any]]) ?? []) }
    }
}
