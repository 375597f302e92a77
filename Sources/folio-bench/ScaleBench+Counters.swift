import Foundation

/// The server's cumulative counters for the benchmark's database, to say
/// what a save costs the server: transactions (each statement outside a
/// transaction is one), index scans of the saved table and of the history,
/// and rows returned.
struct ServerCounters {
    var transactions = 0
    var rowsReturned = 0
    var itemScans = 0
    var historyScans = 0

    /// Reads them now (a backend reports its counts when idle or when it ends, so read after the clients went).
    static func read(_ uri: String) throws -> ServerCounters {
        let raw = try RawPostgres(uri)
        var counters = ServerCounters()
        counters.transactions = try raw.count("SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()")
        counters.rowsReturned = try raw.count("SELECT tup_returned + tup_fetched FROM pg_stat_database WHERE datname = current_database()")
        func scans(_ table: String) throws -> Int {
            try raw.count(
                "SELECT COALESCE(sum(COALESCE(idx_scan, 0) + seq_scan), 0) FROM pg_stat_user_tables WHERE schemaname = 'folio_scale' AND relname = '\(table)'"
            )
        }
        counters.itemScans = try scans("BenchItem")
        counters.historyScans = try scans("folio_history")
        return counters
    }

    static func - (a: ServerCounters, b: ServerCounters) -> ServerCounters {
        ServerCounters(
            transactions: a.transactions - b.transactions, rowsReturned: a.rowsReturned - b.rowsReturned,
            itemScans: a.itemScans - b.itemScans, historyScans: a.historyScans - b.historyScans)
    }

    /// The counts per save, as the text report's line and the JSON's fields.
    func perSave(_ saves: Int) -> (text: String, json: [String]) {
        let n = Double(max(saves, 1))
        let t = Double(transactions) / n, i = Double(itemScans) / n, h = Double(historyScans) / n, r = Double(rowsReturned) / n
        return (
            String(
                format: "server        per save: %.1f transactions, %.1f scans of the saved table, %.1f of the history, %.0f rows read",
                t, i, h, r),
            [
                String(format: "\"server_xacts_per_save\": %.2f", t), String(format: "\"item_scans_per_save\": %.2f", i),
                String(format: "\"history_scans_per_save\": %.2f", h), String(format: "\"rows_read_per_save\": %.1f", r),
            ]
        )
    }
}
