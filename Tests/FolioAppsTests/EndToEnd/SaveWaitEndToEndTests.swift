import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// Finding 6: while another process holds the store's write lock, a
    /// save the app starts waits for it off the main actor: the screen keeps
    /// drawing and taking keys, the hint bar says "saving…", and the save
    /// lands once the lock is released.
    @Suite struct SaveWaitEndToEndTests {
        /// Another process (Python's sqlite3) holding `BEGIN EXCLUSIVE` on the store until `release()`.
        final class ExclusiveLock {
            private let process: ChildProcess

            init(_ path: String) throws {
                process = try ChildProcess(
                    "/usr/bin/env",
                    [
                        "python3", "-c",
                        """
                        import sqlite3, sys
                        db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
                        db.execute("BEGIN EXCLUSIVE")
                        print("locked", flush=True)
                        sys.stdin.readline()
                        db.execute("ROLLBACK")
                        """, path,
                    ], input: .pipe, output: .pipe, errors: .inherit)
                var heard = Data()
                while !String(decoding: heard, as: UTF8.self).contains("locked") {
                    let chunk = process.output?.availableData ?? Data()
                    if chunk.isEmpty { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the locker ended"]) }
                    heard.append(chunk)
                }
            }

            var isHolding: Bool { process.isRunning }

            func release() {
                guard process.isRunning else { return }
                try? process.input?.write(contentsOf: Data("\n".utf8))
                process.wait()
            }

            deinit {
                release()
            }
        }

        @Test func aDeleteWaitsForTheLockWhileTheScreenKeepsResponding() throws {
            let folio = try FolioBinary("planets")
            let term = try folio.open(waitingFor: "Mercury")
            defer { term.close() }
            let lock = try ExclusiveLock(folio.store)
            term.press("d")
            try term.waitFor("permanently delete Mercury?")
            term.press("Up", "Enter")  // Delete
            try term.waitFor("saving…")
            try term.waitForAbsence(of: "permanently delete Mercury?")
            // Keys work while the lock is held: the highlight moves, help opens and closes.
            term.press("Down")
            try term.waitFor("▸ Venus")
            term.press("?")
            try term.waitFor("any key closes help")
            term.press("Escape")
            try term.waitForAbsence(of: "any key closes help")
            #expect(lock.isHolding, "the lock was held throughout")
            #expect(term.screen().contains("Mercury"), "nothing deleted while the lock is held")
            lock.release()
            try term.waitUntil("the delete to land", timeout: 20) { !$0.contains("Mercury") && !$0.contains("saving…") }
            #expect(!term.screen().contains("Not Deleted"), "\(term.screen())")
            #expect(try !folio.listed().contains("Mercury"))
        }

        /// A quit while saves wait does not cut them off: the screen already
        /// shows their changes. `q` waits for them; Ctrl-C then gives the
        /// terminal back, and the process still ends only once they land.
        @Test(arguments: [false, true]) func aQuitWaitsForTheSavesTheScreenAlreadyShows(ctrlCAgain: Bool) throws {
            let folio = try FolioBinary("planets")
            let term = try folio.open(waitingFor: "Mercury")
            defer { term.close() }
            let lock = try ExclusiveLock(folio.store)
            try moveMercuryDownThenQuit(term, rows: 2)  // two saves wait
            if ctrlCAgain {
                term.press("C-c")
                try term.waitUntil("the terminal to be given back", timeout: 20) { !$0.contains("quits when saved") }
            }
            #expect(lock.isHolding, "the lock was held throughout")
            lock.release()
            #expect(try term.waitForExit() == 0)
            #expect(Array(try folio.listed().prefix(3)) == ["Venus", "Earth", "Mercury"])
        }

        /// A save refused while a quit waits for it (the lock held past the
        /// busy timeout) is never passed over in silence: after `q` its alert
        /// shows and the app stays; after Ctrl-C the process says it on
        /// stderr and exits with failure.
        @Test(arguments: [false, true]) func aSaveRefusedWhileAQuitWaitsIsSaid(ctrlCAgain: Bool) throws {
            let folio = try FolioBinary("planets")
            let term = try folio.open(waitingFor: "Mercury")
            defer { term.close() }
            let lock = try ExclusiveLock(folio.store)
            defer { lock.release() }
            try moveMercuryDownThenQuit(term, rows: 1)
            if ctrlCAgain {
                term.press("C-c")
                try term.waitFor("Order Not Saved", timeout: 30)
                #expect(try term.waitForExit() == 1)
            } else {
                try term.waitFor("Order Not Saved", timeout: 30)
                #expect(term.exitStatus() == nil, "the app stays open to show the refusal")
                term.press("Enter")
                try term.waitForAbsence(of: "Order Not Saved")
                term.press("q")
                #expect(try term.waitForExit() == 0)
            }
            lock.release()
            #expect(Array(try folio.listed().prefix(2)) == ["Mercury", "Venus"])
        }

        /// In edit mode, moves Mercury down `rows` rows (each a save that
        /// waits for the lock), leaves edit mode and presses q, which waits.
        private func moveMercuryDownThenQuit(_ term: AppTerminal, rows: Int) throws {
            term.press("e")
            try term.waitFor("[Done]")
            for _ in 0..<rows { term.press("J") }
            try term.waitFor("saving…")
            term.press("e")
            try term.waitFor("[Edit]")
            term.press("q")
            try term.waitFor("quits when saved")
        }
    }
}
