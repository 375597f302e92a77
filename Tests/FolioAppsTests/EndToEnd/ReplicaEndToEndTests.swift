import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// Two Zootastic replicas of one server, in tmux on the release
    /// `folio`: the server stops for about 10 s while both add, edit and
    /// delete (each hint bar counts what waits); when it is back both
    /// converge on the server's store, and the one animal both edited
    /// keeps each side's change, merged property by property.
    @Suite struct ReplicaEndToEndTests {
        /// Waits long: on a loaded two-core machine a sync round, a tmux
        /// capture and a restart of the server can each take seconds.
        static let patience = 90.0

        @Test func twoReplicasWorkThroughAnOutageAndConverge() throws {
            let cluster = try PostgresCluster()
            defer { cluster.destroy() }
            let binary = try AppProcess.folioBinary()
            let store = try cluster.makeDatabase()
            let folder = try AppTemporaryDirectory()
            func replica(_ name: String) -> [String] { ["--store", store, "--replica", folder.path(name)] }
            func list(_ arguments: [String]) throws -> String {
                let result = try AppProcess.run(binary, ["zoo", "list", "--json"] + arguments)
                #expect(result.status == 0, "\(result)")
                return result.stdout
            }
            let a = try AppTerminal([binary.path, "zoo"] + replica("a.sqlite"), width: 110, height: 30)
            defer { a.close() }
            try a.waitUntil("A synced", timeout: Self.patience) { $0.contains("West Indian Manatee") && $0.contains("✓ synced") }
            let b = try AppTerminal([binary.path, "zoo"] + replica("b.sqlite"), width: 110, height: 30)
            defer { b.close() }
            try b.waitUntil("B synced", timeout: Self.patience) { $0.contains("West Indian Manatee") && $0.contains("✓ synced") }

            try cluster.stop()
            let stoppedAt = Date()
            try a.waitFor("● offline", timeout: Self.patience)
            try b.waitFor("● offline", timeout: Self.patience)

            // A adds an okapi and moves the manatee to a lagoon.
            a.press("+")
            try a.waitFor("Add Animal", timeout: Self.patience)
            a.press("Enter")
            a.type("Okapi")
            a.press("Enter", "Down", "Enter")
            a.type("Forest Exhibit")
            a.press("Enter", "Down", "Enter")
            a.type("Artiodactyla")
            a.press("Enter")
            try a.waitFor("Order  Artiodactyla", timeout: Self.patience)
            a.press("e")
            try a.waitFor("▸ Okapi", timeout: Self.patience)
            try a.waitFor("● offline · 1 waiting", timeout: Self.patience)
            try edit(a, lastRowField: 1, from: "Aquatic Mamals Exhibit", to: "Lagoon")
            try a.waitFor("● offline · 2 waiting", timeout: Self.patience)

            // B deletes the bat and renames the manatee: the same animal, another key.
            b.press("g", "d")
            try b.waitFor("permanently delete Pygmy Fruit-eating Bat?", timeout: Self.patience)
            b.press("Up", "Enter")
            try b.waitForAbsence(of: "Pygmy Fruit-eating Bat", timeout: Self.patience)
            try b.waitFor("● offline · 1 waiting", timeout: Self.patience)
            try edit(b, lastRowField: 0, from: "West Indian Manatee", to: "Sea Cow")
            try b.waitFor("● offline · 2 waiting", timeout: Self.patience)

            // The outage lasts about 10 s; only the restart waits for it, no check does.
            let left = 10 - Date().timeIntervalSince(stoppedAt)
            if left > 0 { Thread.sleep(forTimeInterval: left) }
            try cluster.start()

            // Both push, then pull the other's: every change is on both screens.
            for term in [a, b] {
                try term.waitUntil("converged", timeout: Self.patience) { screen in
                    screen.contains("✓ synced") && screen.contains("Okapi") && !screen.contains("Pygmy Fruit-eating Bat")
                        && screen.contains("Sea Cow") && screen.contains("Lagoon") && !screen.contains("West Indian Manatee")
                }
            }
            let server = try list(["--store", store])
            #expect(server.contains("Sea Cow") && server.contains("Lagoon") && server.contains("Okapi"), "\(server)")
            #expect(try list(replica("a.sqlite")) == server)
            #expect(try list(replica("b.sqlite")) == server)
            for term in [a, b] {
                term.press("q")
                #expect(try term.waitForExit() == 0)
            }
        }

        /// Edits field `field` (0 the name, 1 the habitat) of the last row's animal from `old` to `new`.
        func edit(_ term: AppTerminal, lastRowField field: Int, from old: String, to new: String) throws {
            term.press("G", "Enter")
            try term.waitFor("Edit Animal", timeout: Self.patience)
            for _ in 0..<field { term.press("Down") }
            term.press("Enter")
            for _ in 0..<old.count { term.press("BSpace") }
            term.type(new)
            term.press("Enter")
            try term.waitFor(new, timeout: Self.patience)
            term.press("e")
            try term.waitForAbsence(of: "Edit Animal", timeout: Self.patience)
            try term.waitFor(new, timeout: Self.patience)
        }
    }
}
