import CLibPQ
import Dispatch
import FolioStore
import Foundation

/// One libpq connection, used by one thread at a time (the store's connection lock or a
/// feed's queue). Statements take their values as `$1…` parameters;
/// failures become ``StoreError``s that name the server, never a raw libpq
/// code. A connection found broken between statements is reset once before
/// the next one, so a restarted server is picked up by itself; inside a
/// transaction a lost connection fails the transaction instead.
///
///     let connection = try PGConnection(uri: "postgresql:///folio?host=/run/pg")
///     let rows = try connection.query("SELECT id FROM \"Planet\" WHERE name = $1", [.text("Mars")])
final class PGConnection {
    private var handle: OpaquePointer?
    let uri: String
    /// The URI without its password, for messages.
    let display: String
    private let statementTimeoutMilliseconds: Int?
    /// Runs after each (re)connection, before anything else: LISTEN, search_path.
    var onConnect: ((PGConnection) throws -> Void)?
    /// Why the schema this session's names resolve in cannot be used, found
    /// when it connected (``PostgresServer``); the server's own words for it
    /// ("no schema has been selected to create in") do not say.
    var namespaceProblem: String?
    /// Counts the sessions this connection has opened: when it changes, a
    /// reconnect happened and the session's state (its LISTEN, its socket) is new.
    private(set) var generation = 0
    /// This session's prepared statements (by SQL and parameter types) and
    /// the statements seen once: a statement is prepared when it comes again,
    /// so one-off statements cost no extra round trip.
    private var statements = PGStatementCache()

    /// Connects to `uri` (any libpq connection string or URI). A server that
    /// cannot be reached or refuses the login is a ``StoreError/offline(store:message:)``.
    /// With `lazily`, the session opens with the first statement (an idle
    /// container then holds no server connection).
    init(
        uri: String, statementTimeoutMilliseconds: Int? = 30_000, lazily: Bool = false,
        onConnect: ((PGConnection) throws -> Void)? = nil
    ) throws {
        self.uri = uri
        display = PGConnection.redacted(uri)
        self.statementTimeoutMilliseconds = statementTimeoutMilliseconds
        self.onConnect = onConnect
        if !lazily { try connect() }
    }

    deinit { PQfinish(handle) }

    private func connect() throws {
        if let handle { PQfinish(handle) }
        statements = PGStatementCache()
        // Defaults first: the URI's own settings, expanded from dbname, win over them.
        let keywords = ["connect_timeout", "fallback_application_name", "dbname"]
        let values = ["10", "folio", uri]
        handle = nil
        switch Self.start(keywords, values) {
        case .success(let connection): handle = connection
        case .failure(let failure): throw StoreError.offline(store: display, message: failure.message)
        }
        // Notices ("already exists, skipping") are not for the user; warnings
        // go to ``PostgresNotices``, never raw to standard error. A statement
        // that is never prepared is planned with its values only while the
        // plan cache chooses (`auto`): a server set to force generic plans would
        // keep every list of IDs a parameter, tested against each row scanned.
        try execute("SET client_min_messages = warning; SET plan_cache_mode = auto")
        if let statementTimeoutMilliseconds { try execute("SET statement_timeout = \(statementTimeoutMilliseconds)") }
        try onConnect?(self)
        generation += 1
    }

    /// Ends the session now (a later statement would open a new one).
    func close() {
        PQfinish(handle)
        handle = nil
        statements = PGStatementCache()
    }

    /// libpq's message for the last failure, on one line.
    private var lastMessage: String {
        Self.oneLine(handle.flatMap { PQerrorMessage($0) }.map { String(cString: $0) } ?? "out of memory")
    }

    /// Whether the connection is up as far as libpq knows.
    var isConnected: Bool { handle != nil && PQstatus(handle) == CONNECTION_OK }

    /// Whether a transaction is open (or failed and not yet rolled back).
    var isInTransaction: Bool {
        guard let handle else { return false }
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// Reconnects if the connection broke (a transaction open on it was lost with it).
    func reconnectIfNeeded() throws {
        if !isConnected || endedWhileIdle() { try connect() }
    }

    /// Whether the server ended this session while it sat idle (a restart, an
    /// ended backend): it then says why and closes the socket, which libpq
    /// notices only when it reads, after the next statements were sent.
    /// Caught here, before sending, a statement that may not run twice (a
    /// COMMIT) starts on a new session instead of failing. A socket with
    /// nothing to read costs one poll; what is there is read (the reason,
    /// then the end, or a listener's notifications, kept for it).
    private func endedWhileIdle() -> Bool {
        guard let handle, !isInTransaction else { return false }
        var probe = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        for _ in 0..<4 where poll(&probe, 1, 0) > 0 {
            if PQconsumeInput(handle) == 0 || PQstatus(handle) != CONNECTION_OK { return true }
        }
        return false
    }

    /// Statements that go to the server with the next statement, in its
    /// round trip: a save's BEGIN and write lock travel with its first
    /// write. A failure among them fails that statement.
    private(set) var deferred: [PGStatement] = []

    /// Sends `statements` with the next statement.
    func sendWithNextStatement(_ statements: [PGStatement]) {
        deferred += statements
    }

    /// Forgets statements not sent yet.
    func dropDeferred() {
        deferred = []
    }

    /// Runs statements without parameters (several may be separated by `;`
    /// when none is deferred), after any deferred ones, in one round trip.
    func execute(_ sql: String) throws {
        guard deferred.isEmpty else {
            _ = try pipeline([PGStatement(sql)])
            return
        }
        try retryingOnce(repeatable: Self.isRepeatable([sql])) {
            let result = PQexec(handle, sql)
            defer { PQclear(result) }
            try check(result, sql)
        }
    }

    /// Runs one statement with parameters and returns its rows. Deferred
    /// statements go before it and `after` (statements without parameters,
    /// e.g. COMMIT) after it, in one pipeline: one round trip in all. The
    /// first failure is thrown; nothing after it in the pipeline ran.
    @discardableResult
    func query(_ sql: String, _ values: [StoreValue] = [], then after: [String] = []) throws -> PGResult {
        guard deferred.isEmpty && after.isEmpty else {
            return try pipeline([PGStatement(sql, values)] + after.map { PGStatement($0) })[0]
        }
        let parameters = PGParameters(values)
        return try retryingOnce(repeatable: Self.isRepeatable([sql])) {
            let name = try preparedName(sql, parameters)
            let result = parameters.withPointers { types, pointers, lengths, formats in
                if let name { return PQexecPrepared(handle, name, Int32(values.count), pointers, lengths, formats, 0) }
                return PQexecParams(handle, sql, Int32(values.count), types, pointers, lengths, formats, 0)
            }
            do { try check(result, sql) } catch {
                PQclear(result)
                throw error
            }
            return PGResult(result!)
        }
    }

    /// Runs the deferred statements, then `statements`, in one pipeline (one
    /// round trip), and returns the rows of each of `statements`. The first
    /// failure is thrown; nothing after it in the pipeline ran. `meanwhile`
    /// runs once they are sent, before their results are read, so work here
    /// overlaps the server's (it runs again if the statements are sent again
    /// on a new session).
    ///
    ///     let results = try connection.pipeline([PGStatement("BEGIN"), PGStatement(update, values), PGStatement("COMMIT")])
    func pipeline(_ statements: [PGStatement], meanwhile: () -> Void = {}) throws -> [PGResult] {
        try pipeline(statements, trailing: nil, meanwhile: meanwhile).results
    }

    /// As ``pipeline(_:meanwhile:)``, with `trailing` sent last in the same
    /// round trip, in a transaction of its own after theirs, whose failure
    /// fails none of them (a save's announcement after its COMMIT): whether
    /// it ran comes back with their results.
    ///
    ///     let (_, announced) = try connection.pipeline(save + [PGStatement("COMMIT")], trailing: notify)
    func pipeline(_ statements: [PGStatement], trailing: PGStatement?, meanwhile: () -> Void = {}) throws -> (
        results: [PGResult], trailingRan: Bool
    ) {
        let skipped = deferred.count, checked = skipped + statements.count
        let all = deferred + statements + (trailing.map { [$0] } ?? [])
        deferred = []
        return try retryingOnce(repeatable: Self.isRepeatable(all.map(\.sql))) {
            let parameters = all.map { PGParameters($0.values) }
            var names: [String?] = []
            for (statement, p) in zip(all, parameters) {
                let before = self.statements.generation
                let name = try preparedName(statement.sql, p)
                // Preparing it emptied the session's statements: the names looked up before are gone.
                if self.statements.generation != before { names = names.map { _ in nil } }
                names.append(name)
            }
            let results = pipelined(all.count, meanwhile: meanwhile) { index -> Int32 in
                parameters[index].withPointers { types, pointers, lengths, formats in
                    let count = Int32(all[index].values.count)
                    if let name = names[index] { return PQsendQueryPrepared(handle, name, count, pointers, lengths, formats, 0) }
                    return PQsendQueryParams(handle, all[index].sql, count, types, pointers, lengths, formats, 0)
                }
            }
            for index in 0..<checked {
                do { try check(results[index], all[index].sql) } catch {
                    for result in results { PQclear(result) }
                    throw error
                }
            }
            // The trailing statement's failure is only noted (a lost connection is still let go of).
            let trailingRan = checked < all.count && (try? check(results[checked], all[checked].sql)) != nil
            for result in results.prefix(skipped) + results.dropFirst(checked) { PQclear(result) }
            return (results[skipped..<checked].map { PGResult($0!) }, trailingRan)
        }
    }

    /// Runs `count` statements in one pipeline (`send` sends the one at an
    /// index), runs `meanwhile` once they are sent, and returns each one's
    /// first result, nil for one not run (the connection broke).
    private func pipelined(_ count: Int, meanwhile: () -> Void, send: (Int) -> Int32) -> [OpaquePointer?] {
        guard PQenterPipelineMode(handle) == 1 else { return Array(repeating: nil, count: count) }
        var sent = 0
        while sent < count, send(sent) == 1 { sent += 1 }
        _ = PQpipelineSync(handle)
        meanwhile()
        // Each statement's results, ended by a NULL; the sync's result ends the pipeline.
        var results: [OpaquePointer?] = []
        var current: OpaquePointer?
        while true {
            guard let r = PQgetResult(handle) else {
                results.append(current)
                current = nil
                if results.count > sent || !isConnected { break }
                continue
            }
            if PQresultStatus(r) == PGRES_PIPELINE_SYNC { PQclear(r); break }
            if current == nil { current = r } else { PQclear(r) }
        }
        if let current { PQclear(current) }
        _ = PQexitPipelineMode(handle)
        for extra in results.dropFirst(count) { PQclear(extra) }
        results.removeLast(max(0, results.count - count))
        return results + Array(repeating: nil, count: count - results.count)
    }

    /// The name of `sql` prepared on this session for these parameter types,
    /// preparing it on its second use; nil while it has been seen only once.
    private func preparedName(_ sql: String, _ parameters: PGParameters) throws -> String? {
        switch statements.lookUp(sql, parameters.types) {
        case .prepared(let name): return name
        case .firstUse: return nil
        case .prepare(let name, let evictAll):
            if evictAll { try execute("DEALLOCATE ALL") }
            let result = parameters.types.withUnsafeBufferPointer { t in
                PQprepare(handle, name, sql, Int32(t.count), t.baseAddress)
            }
            defer { PQclear(result) }
            try check(result, sql)
            statements.didPrepare(sql, parameters.types, name)
            return name
        }
    }

    /// Runs `body`; when the connection turns out lost (a restarted server,
    /// an ended backend) outside a transaction, for statements that may run
    /// again (`repeatable`), reconnects and runs it once more.
    private func retryingOnce<R>(repeatable: Bool, _ body: () throws -> R) throws -> R {
        try reconnectIfNeeded()
        let wasInTransaction = isInTransaction
        do { return try body() } catch StoreError.offline(let store, let message) {
            guard !wasInTransaction, repeatable else { throw StoreError.offline(store: store, message: message) }
            try connect()
            return try body()
        }
    }

    /// Whether statements may run again after the connection was lost: ones
    /// that only read or open a transaction, or a run that opens its own
    /// transaction and does not end it (the lost session rolled it back).
    /// A write outside a transaction, or a COMMIT, is never repeated: it may have landed.
    private static func isRepeatable(_ statements: [String]) -> Bool {
        func reads(_ sql: String) -> Bool {
            sql.hasPrefix("BEGIN") || sql.hasPrefix("SELECT") || sql.hasPrefix("SET") || sql.hasPrefix("LISTEN")
        }
        if statements.first == "BEGIN" { return !statements.contains { $0.hasPrefix("COMMIT") || $0.hasPrefix("RELEASE") } }
        return statements.allSatisfy(reads)
    }

    /// The first column of the first row, or nil.
    func scalar(_ sql: String, _ values: [StoreValue] = []) throws -> StoreValue? {
        let result = try query(sql, values)
        return result.rowCount > 0 ? result.value(row: 0, column: 0) : nil
    }

    private func check(_ result: OpaquePointer?, _ sql: String) throws {
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY { return }
        func field(_ letter: Character) -> String? {
            result.flatMap { PQresultErrorField($0, Int32(letter.asciiValue!)) }.map { String(cString: $0) }
        }
        let code = field("C") ?? ""
        let message = field("M") ?? lastMessage
        // No SQLSTATE: libpq itself failed, the connection is gone.
        if !isConnected || code.isEmpty || code.hasPrefix("08") || code.hasPrefix("57P") {
            PQfinish(handle)
            handle = nil
            throw StoreError.offline(store: display, message: message)
        }
        if code == "57014" { throw StoreError.timedOut(store: display) }
        // invalid_schema_name: the search path holds no schema this role may use.
        if code == "3F000", let namespaceProblem {
            throw StoreError.server(store: display, code: code, message: namespaceProblem, sql: sql)
        }
        if code == "55P03" { throw StoreError.busy(path: display) }
        if code == "23505", let (key, value) = Self.duplicateKey(field("D")) {
            throw StoreError.constraintViolation(entity: field("t") ?? "?", key: key, value: value)
        }
        throw StoreError.server(store: display, code: code, message: message, sql: sql)
    }

    /// "Key (name)=(Mars) already exists." → ("name", "'Mars'"); a unique-together
    /// group names every column: "Key (aisle, bay)=(A, 3)" → ("aisle, bay", "'A', 3").
    private static func duplicateKey(_ detail: String?) -> (String, String)? {
        guard let detail, let open = detail.range(of: "Key ("),
            let close = detail.range(of: ")=(", range: open.upperBound..<detail.endIndex),
            let end = detail.range(of: ") already exists", options: .backwards)
        else { return nil }
        let keys = detail[open.upperBound..<close.lowerBound].split(separator: ",").map {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        }
        let text = String(detail[close.upperBound..<end.lowerBound])
        // Values hold commas of their own only rarely; then the text is shown whole.
        let parts = text.components(separatedBy: ", ")
        let raws = parts.count == keys.count ? parts : [text]
        let shown = raws.map { raw in Double(raw) == nil ? "'\(raw)'" : raw }
        return (keys.joined(separator: ", "), shown.joined(separator: ", "))
    }

    // MARK: Notifications

    /// The socket to watch for notifications, or nil when disconnected.
    var socket: Int32? {
        guard isConnected else { return nil }
        let fd = PQsocket(handle)
        return fd >= 0 ? fd : nil
    }

    /// Reads what the server sent and returns the notifications' payloads,
    /// oldest first; nil when the connection broke.
    func drainNotifications() -> [String]? {
        guard isConnected, PQconsumeInput(handle) == 1 else { return nil }
        var payloads: [String] = []
        while let notification = PQnotifies(handle) {
            payloads.append(String(cString: notification.pointee.extra))
            PQfreemem(notification)
        }
        return isConnected ? payloads : nil
    }

    /// As ``drainNotifications()``, each payload with its channel.
    func drainNotificationsByChannel() -> [(channel: String, payload: String)]? {
        guard isConnected, PQconsumeInput(handle) == 1 else { return nil }
        var heard: [(channel: String, payload: String)] = []
        while let notification = PQnotifies(handle) {
            heard.append((String(cString: notification.pointee.relname), String(cString: notification.pointee.extra)))
            PQfreemem(notification)
        }
        return isConnected ? heard : nil
    }

    /// The backend process ID of this connection on the server.
    var serverProcessID: Int32 { handle.map(PQbackendPID) ?? 0 }

    /// `uri` without a password, e.g. `postgresql://ann@db/folio`.
    static func redacted(_ uri: String) -> String {
        var text = uri
        if let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].firstIndex(of: "@"),
            let colon = text[scheme.upperBound..<at].firstIndex(of: ":")
        {
            text.replaceSubrange(colon..<at, with: "")
        }
        if let range = text.range(of: #"password=[^&\s]*"#, options: .regularExpression) {
            text.replaceSubrange(range, with: "password=…")
        }
        return text
    }
}

/// A statement and its parameters' values (`$1`…), for a pipeline.
struct PGStatement {
    let sql: String
    let values: [StoreValue]

    init(_ sql: String, _ values: [StoreValue] = []) {
        self.sql = sql
        self.values = values
    }
}

/// Calls `body` with a NULL-free array of C strings that lives for the call.
func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    var pointers = strings.map { UnsafePointer(strdup($0)) }
    pointers.append(nil)
    defer { for p in pointers { free(UnsafeMutablePointer(mutating: p)) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
