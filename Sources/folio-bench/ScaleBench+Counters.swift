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

/// CPU time (user and system) spent by processes, from `/proc`: what a save
/// costs the server and the clients, which the saves a second on a busy
/// machine only hint at.
enum ProcessCPU {
    /// The fields of `/proc/PID/stat` after the command's closing
    /// parenthesis: state (field 3) first, so field n is at n - 3.
    private static func stat(_ pid: pid_t) -> [Substring]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 14 ? fields : nil
    }

    /// Seconds of CPU in `fields`: utime and stime (fields 14 and 15); with
    /// `reaped`, also cutime and cstime (16 and 17), the children that ended and were waited for.
    private static func seconds(_ fields: [Substring], reaped: Bool) -> Double {
        (reaped ? 11...14 : 11...12).reduce(0.0) { $0 + (Double(fields[$1]) ?? 0) } / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Seconds of CPU `pids` have used so far (processes gone are left out).
    static func seconds(_ pids: [pid_t]) -> Double {
        pids.compactMap(stat).reduce(0.0) { $0 + seconds($1, reaped: false) }
    }

    /// Seconds of CPU the server has used so far: the postmaster (its pid
    /// file's first line in `dataDirectory`) with the backends that ended,
    /// and the backends running (its children: field 4, the parent, names it).
    static func server(dataDirectory: String) -> Double {
        guard let text = try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8),
            let first = text.split(separator: "\n").first, let postmaster = pid_t(first)
        else { return 0 }
        let all = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { pid_t($0) } ?? []
        return all.reduce(0.0) { total, pid in
            guard let fields = stat(pid) else { return total }
            if pid == postmaster { return total + seconds(fields, reaped: true) }
            return pid_t(fields[1]) == postmaster ? total + seconds(fields, reaped: false) : total
        }
    }
}

/// CPU seconds used so far by the server, this process (the writers) and the clients' processes.
struct CPUSplit {
    var server: Double
    var writers: Double
    var clients: Double
}

extension CPUSplit {
    init(serverData: String, clients: [pid_t]) {
        self.init(
            server: ProcessCPU.server(dataDirectory: serverData), writers: ProcessCPU.seconds([getpid()]),
            clients: ProcessCPU.seconds(clients))
    }

    static func - (a: CPUSplit, b: CPUSplit) -> CPUSplit {
        CPUSplit(server: a.server - b.server, writers: a.writers - b.writers, clients: a.clients - b.clients)
    }

    /// Each share over `saves`, in microseconds.
    func microseconds(per saves: Int) -> CPUSplit {
        let n = Double(max(saves, 1)) / 1e6
        return CPUSplit(server: server / n, writers: writers / n, clients: clients / n)
    }
}
