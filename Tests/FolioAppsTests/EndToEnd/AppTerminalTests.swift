import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// The harness itself, on a plain shell program: keys in, screen out, exit status.
    @Suite struct AppTerminalTests {
        @Test func keysReachTheProgramAndTheScreenComesBack() throws {
            let term = try AppTerminal(
                ["/bin/sh", "-c", "echo ready; read line; echo \"got:$line\"; sleep 0.5; exit 3"], width: 60, height: 10)
            defer { term.close() }
            try term.waitFor("ready")
            term.type("hello")
            term.press("Enter")
            try term.waitFor("got:hello")
            #expect(try term.waitForExit() == 3)
        }

        @Test func waitingForAbsentTextTimesOut() throws {
            let term = try AppTerminal(["/bin/sh", "-c", "echo present; sleep 5"], width: 40, height: 5)
            defer { term.close() }
            try term.waitFor("present")
            #expect(throws: AppTerminal.Timeout.self) { try term.waitFor("absent", timeout: 0.3) }
        }
    }
}
