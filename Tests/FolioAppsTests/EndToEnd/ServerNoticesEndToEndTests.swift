import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// What a PostgreSQL server says outside an answer (a trigger's
    /// warning, the last words of a session it ends) reaches the terminal
    /// only through the sanitiser, on a line of its own that names it.
    @Suite struct ServerNoticesEndToEndTests {
        @Test func aTriggersWarningWithEscapeSequencesIsShownVisibly() throws {
            let cluster = try PostgresCluster.shared()
            let binary = try AppProcess.folioBinary()
            let store = try cluster.makeDatabase(prefix: "notices")
            #expect(try AppProcess.run(binary, ["planets", "list", "--store", store]).status == 0)
            // Clear the screen, set the window title, and a C1 CSI (U+009B).
            try cluster.runSQL(
                """
                CREATE FUNCTION shout() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    RAISE WARNING 'orbit%', E'\\x1b[2J' || E'\\x1b]0;pwned\\x07' || chr(155) || '1m';
                    RETURN NEW;
                END $$;
                CREATE TRIGGER shout BEFORE INSERT ON "Planets"."Planet" FOR EACH ROW EXECUTE FUNCTION shout();
                """, database: PostgresCluster.databaseName(store))
            let added = try AppProcess.run(binary, ["planets", "add", "Vulcan", "--store", store])
            #expect(added.status == 0, "\(added)")
            #expect(CommandLineEndToEndTests.hostile(added.stderr).isEmpty, "\(added.stderr.debugDescription)")
            #expect(added.stderr.contains("folio: server: WARNING:  orbit^[[2J^[]0;pwned^G<9B>1m"), "\(added.stderr.debugDescription)")
        }

        @Test func aSessionEndedByTheServerIsReportedThroughTheSanitiser() throws {
            let cluster = try PostgresCluster.shared()
            let binary = try AppProcess.folioBinary()
            let store = try cluster.makeDatabase(prefix: "notices")
            let app = try PtyApp(binary, ["planets", "--store", store])
            defer { app.close() }
            app.keepsOutput = true
            try app.waitFor("Mercury")
            // The app's sessions sit idle: each is told why it ends while no statement runs.
            let database = PostgresCluster.databaseName(store)
            let ended = try cluster.runSQL(
                """
                SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                WHERE datname = '\(database)' AND pid <> pg_backend_pid()
                """)
            #expect(Int(ended.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 > 0, "\(ended)")
            // A save after the loss reconnects and lands.
            _ = try AppProcess.run(binary, ["planets", "add", "Vulcan", "--store", store])
            try app.waitFor("Vulcan", timeout: 30)
            app.send(Array("q".utf8))  // it ends the program: nothing is left to settle
            #expect(try app.waitForExit().code == 0)
            // Standard error, kept while the app drew, is printed after the terminal is restored.
            let text = String(decoding: app.output, as: UTF8.self)
            // Whether libpq reads an idle session's FATAL as a notice depends on when the app next uses
            // that session; wherever the server's words do show, they come through the sanitiser.
            let said = text.components(separatedBy: "terminating connection").dropLast()
            for before in said {
                #expect(before.hasSuffix("folio: server: FATAL:  "), "\(before.suffix(80).debugDescription)")
            }
        }
    }
}
