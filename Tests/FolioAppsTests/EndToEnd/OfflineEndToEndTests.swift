import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// The real `folio` binary in tmux on a PostgreSQL store whose server
    /// stops for 10 seconds: the app says it is offline, keeps drawing and
    /// taking keys, a delete while offline fails with an alert and deletes
    /// nothing, and when the server is back the status goes and a planet
    /// another client added after the restart appears.
    @Suite struct OfflineEndToEndTests {
        @Test func theServerStoppedForTenSecondsIsShownAndNothingIsLost() throws {
            let cluster = try PostgresCluster()
            defer { cluster.destroy() }
            let binary = try AppProcess.folioBinary()
            let store = try cluster.makeDatabase()
            func list() throws -> [String] {
                let result = try AppProcess.run(binary, ["planets", "list", "--store", store])
                #expect(result.status == 0, "\(result)")
                return result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            }
            let before = try list()
            let term = try AppTerminal([binary.path, "planets", "--store", store], width: 80, height: 24)
            defer { term.close() }
            try term.waitFor("Mercury")
            #expect(!term.screen().contains("offline"))

            try cluster.stop()
            let stoppedAt = Date()
            try term.waitFor("offline", timeout: 15)
            // It keeps taking keys: help opens and closes.
            term.press("?")
            try term.waitFor("any key closes help", timeout: 10)
            term.press("Escape")
            try term.waitForAbsence(of: "any key closes help")
            // A delete while offline fails with an alert and deletes nothing.
            term.press("Down", "Down", "Down", "Left", "Enter")
            try term.waitFor("Are you sure you want to permanently delete Mars?")
            term.press("Up", "Enter")
            try term.waitFor("Not Deleted", timeout: 20)
            term.press("Enter")
            try term.waitForAbsence(of: "Not Deleted")
            #expect(term.screen().contains("Mars"))
            #expect(term.screen().contains("offline"))
            let left = 10 - Date().timeIntervalSince(stoppedAt)
            if left > 0 { Thread.sleep(forTimeInterval: left) }

            try cluster.start()
            try term.waitForAbsence(of: "offline", timeout: 20)
            let added = try AppProcess.run(binary, ["planets", "add", "Vulcan", "--store", store])
            #expect(added.status == 0, "\(added)")
            try term.waitFor("Vulcan", timeout: 20)
            #expect(try list() == before + ["Vulcan"])
            term.press("q")
            #expect(try term.waitForExit() == 0)
        }
    }
}
