import FolioLocking
import Foundation
import Synchronization

/// A throwaway PostgreSQL cluster for tests: `initdb` and `pg_ctl` in a
/// temporary directory, listening on a Unix socket only (no TCP), run as
/// the `postgres` user when the tests run as root. One cluster serves a test
/// process (``shared()``); each test takes a database of its own
/// (``makeDatabase()``). It stops when the process exits, and a watchdog
/// stops it if the process is killed; clusters left by earlier runs are
/// stopped by their pid files, never by process name. A cluster that cannot
/// start is an error (tests fail, they never skip).
///
///     let cluster = try await PostgresCluster.shared()
///     let uri = try await cluster.makeDatabase()   // postgresql:///t1?host=/tmp/folio-pg-…&user=postgres
///
/// Each operation waits for a program (`initdb`, `pg_ctl`, `psql`): from
/// async code, await its async form (PostgresCluster+Async.swift), which
/// waits on a thread of its own; the blocking forms refuse to run on the
/// main actor.
public final class PostgresCluster: Sendable {
    /// The folder holding the data directory, the socket and the log.
    public let directory: String
    /// The folder of the Unix socket (libpq's `host`).
    public var socketDirectory: String { directory + "/socket" }
    public let port = 5432
    private let binaries: String
    private let runAsPostgres: Bool
    private let databases = Atomic<Int>(0)

    private static let sharedCluster = LockedValue<PostgresCluster?>(nil)
    private static let prefix = "folio-pg-"
    private static let stagingPrefix = "folio-pgnew-"

    /// The cluster of this test process, started on first use.
    public static func shared() throws -> PostgresCluster {
        try sharedCluster.withLock { cluster in
            if let cluster { return cluster }
            let started = try PostgresCluster()
            cluster = started
            return started
        }
    }

    /// Starts a new cluster (tests that restart or stop their server take one of their own).
    public init() throws {
        Self.removeStaleClusters()
        binaries = try Self.findBinaries()
        runAsPostgres = getuid() == 0
        let base = FileManager.default.temporaryDirectory.path
        let name = "\(getpid())-\(UUID().uuidString.prefix(8))"
        directory = "\(base)/\(Self.prefix)\(name)"
        // Made under another name and renamed: a cluster folder is never seen
        // without its owner, or another cluster's start would take it for stale.
        let staging = "\(base)/\(Self.stagingPrefix)\(name)"
        try FileManager.default.createDirectory(atPath: staging + "/socket", withIntermediateDirectories: true)
        try "\(getpid())".write(toFile: staging + "/owner.pid", atomically: true, encoding: .utf8)
        guard rename(staging, directory) == 0 else {
            throw ClusterError(message: "cannot make \(directory): \(String(cString: strerror(errno)))")
        }
        if runAsPostgres { try ProgramRun.output("/bin/chown", ["-R", "postgres:postgres", directory]) }
        do {
            try runTool(
                "initdb",
                [
                    "-D", directory + "/data", "-A", "trust", "-U", "postgres", "-E", "UTF8",
                    "--locale=C", "--no-sync", "--no-instructions",
                ])
            try start()
        } catch {
            let log = (try? String(contentsOfFile: directory + "/log", encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(atPath: directory)
            throw ClusterError(message: "the throwaway PostgreSQL server did not start: \(error)\n\(log.suffix(2000))")
        }
        let directory = self.directory
        Self.stopAtExit(self)
        startWatchdog(directory)
    }

    /// The server's settings: the socket only, and no fsync (it guards
    /// against an operating-system crash, which a test server need not
    /// survive). Commits stay synchronous: with `synchronous_commit=off` an
    /// immediate stop (``stop()``) loses commits already acknowledged.
    private var serverOptions: String {
        "-k \(socketDirectory) -c listen_addresses='' -p \(port) -c fsync=off -c max_connections=500"
    }

    /// Starts the server (after ``stop()``), waiting until it accepts connections.
    public func start() throws {
        try control(["-l", directory + "/log", "-o", serverOptions, "start"])
    }

    /// Stops the server at once (clients see their connections drop).
    public func stop() throws {
        try control(["-m", "immediate", "stop"])
    }

    /// Restarts the server: every connection drops, then it accepts new ones.
    public func restart() throws {
        try control(["-m", "fast", "restart", "-o", serverOptions])
    }

    /// Runs `pg_ctl` and waits for it to finish its work. Its wait only
    /// catches a hang: a loaded machine took over 60 s to bring a server
    /// back from an immediate stop. A failure carries the end of the server's log.
    private func control(_ arguments: [String]) throws {
        do {
            try runTool("pg_ctl", ["-D", directory + "/data", "-w", "-t", "600"] + arguments)
        } catch {
            let log = (try? String(contentsOfFile: directory + "/log", encoding: .utf8)) ?? ""
            throw ClusterError(message: "\(error)\nthe server's log ends:\n\(log.suffix(2000))")
        }
    }

    /// Stops the server and removes its files; called on the main actor
    /// (a test's `defer`), it does so on a thread of its own and returns at once.
    public func destroy() {
        guard !BlockingWork.isOnMainQueue else {
            Thread { self.destroy() }.start()
            return
        }
        try? stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A connection URI for `database` over the socket. A loaded test machine
    /// can take longer than libpq's usual 10 s to let a session in; a stopped
    /// server still fails at once (its socket is gone).
    public func uri(database: String) -> String {
        "postgresql:///\(database)?host=\(socketDirectory)&port=\(port)&user=postgres&connect_timeout=600"
    }

    /// Creates a new empty database and returns its URI.
    public func makeDatabase(prefix: String = "t") throws -> String {
        let name = "\(prefix)\(getpid())_\(databases.add(1, ordering: .relaxed).newValue)"
        try runSQL("CREATE DATABASE \(name)")
        return uri(database: name)
    }

    /// Runs SQL through `psql` on `database` and returns what it printed (unaligned, tuples only).
    @discardableResult
    public func runSQL(_ sql: String, database: String = "postgres") throws -> String {
        try ProgramRun.output(
            binaries + "/psql",
            [
                "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", socketDirectory, "-p", "\(port)",
                "-U", "postgres", "-d", database, "-c", sql,
            ])
    }

    /// The database name of a URI made by ``makeDatabase(prefix:)``.
    public static func databaseName(_ uri: String) -> String {
        String(uri.dropFirst("postgresql:///".count).prefix { $0 != "?" })
    }

    private func runTool(_ tool: String, _ arguments: [String]) throws {
        let path = binaries + "/" + tool
        if runAsPostgres {
            try ProgramRun.output("/usr/sbin/runuser", ["-u", "postgres", "--", path] + arguments)
        } else {
            try ProgramRun.output(path, arguments)
        }
    }

    /// The server's programs: where `initdb` is on the PATH beside `pg_ctl`, else Debian's newest version.
    private static func findBinaries() throws -> String {
        var candidates: [String] = []
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for v in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) { candidates.append("/usr/lib/postgresql/\(v)/bin") }
        candidates += (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for dir in candidates
        where ["initdb", "pg_ctl", "postgres", "psql"].allSatisfy({
            FileManager.default.isExecutableFile(atPath: dir + "/" + $0)
        }) { return dir }
        throw ClusterError(message: "no PostgreSQL server programs (initdb, pg_ctl, postgres, psql) were found; run scripts/setup")
    }

    /// Stops every cluster this process started when it exits normally.
    private static func stopAtExit(_ cluster: PostgresCluster) {
        running.withLock { $0.append(cluster) }
        if registeredExit.exchange(true, ordering: .relaxed) { return }
        atexit {
            let clusters = PostgresCluster.running.withLock { $0 }
            for c in clusters { c.destroy() }
        }
    }

    private static let running = LockedValue<[PostgresCluster]>([])
    private static let registeredExit = Atomic<Bool>(false)

    /// A shell that waits for this process to end, then stops the server
    /// and removes its files: a killed test runner leaves nothing behind.
    private func startWatchdog(_ directory: String) {
        let ctl = binaries + "/pg_ctl"
        let stop = runAsPostgres ? "/usr/sbin/runuser -u postgres -- \(ctl)" : ctl
        let script = """
            while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done
            \(stop) -D '\(directory)/data' -m immediate stop >/dev/null 2>&1
            rm -rf '\(directory)'
            """
        // `setsid -f` forks and returns at once; the shell lives on by itself.
        _ = try? ProgramRun.output("/usr/bin/setsid", ["-f", "/bin/sh", "-c", script])
    }

    /// Stops clusters whose test process is gone: the postmaster named in
    /// each one's pid file (checked to be a postgres of that directory).
    private static func removeStaleClusters() {
        let base = FileManager.default.temporaryDirectory.path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        for name in names where name.hasPrefix(stagingPrefix) {
            // A folder being made: stale only once its owner is gone.
            let dir = base + "/" + name
            if let owner = (try? String(contentsOfFile: dir + "/owner.pid", encoding: .utf8)).flatMap({ Int32($0) }),
                kill(owner, 0) != 0 && errno != EPERM
            {
                try? FileManager.default.removeItem(atPath: dir)
            }
        }
        for name in names where name.hasPrefix(prefix) && !name.hasPrefix(prefix + "output-") {
            let dir = base + "/" + name
            if let owner = (try? String(contentsOfFile: dir + "/owner.pid", encoding: .utf8)).flatMap({ Int32($0) }),
                kill(owner, 0) == 0 || errno == EPERM
            {
                continue
            }
            if let pidFile = try? String(contentsOfFile: dir + "/data/postmaster.pid", encoding: .utf8),
                let pid = pidFile.split(separator: "\n").first.flatMap({ Int32($0) }),
                let command = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8),
                command.contains("postgres"), command.contains(dir)
            {
                kill(pid, SIGQUIT)
                for _ in 0..<100 where kill(pid, 0) == 0 { usleep(50_000) }
            }
            try? FileManager.default.removeItem(atPath: dir)
        }
    }
}

/// The throwaway server could not be made or driven.
public struct ClusterError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
