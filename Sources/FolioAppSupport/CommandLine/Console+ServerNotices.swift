import FolioPostgres
import Foundation

extension Console {
    /// Prints every notice a PostgreSQL server sends (a trigger's `RAISE
    /// WARNING`, a shutdown's last words) on standard error as a line of its
    /// own, made safe by ``TextSanitizer`` like all other output: libpq would
    /// have printed it raw. Called once, first thing, by the `folio` program.
    ///
    /// ```swift
    /// Console.printServerNotices()
    /// // folio: server: WARNING:  ^[[2Jorbit checked
    /// ```
    package static func printServerNotices() {
        PostgresNotices.route { line in
            FileHandle.standardError.write(Data(("folio: server: " + TextSanitizer.visible(line) + "\n").utf8))
        }
    }
}
