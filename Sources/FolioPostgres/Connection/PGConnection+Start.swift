import CLibPQ
import Foundation

extension PGConnection {
    /// Opens a connection with `keywords` and `values` (as `PQconnectdbParams`
    /// takes them), its notices routed to ``PostgresNotices`` before the
    /// first byte from the server: `PQconnectdbParams` would print the ones
    /// sent while logging in. A failure is libpq's message, on one line.
    static func start(_ keywords: [String], _ values: [String]) -> Result<OpaquePointer, StartFailure> {
        let started = withCStrings(keywords) { k in withCStrings(values) { v in PQconnectStartParams(k, v, 1) } }
        guard let handle = started else { return .failure(StartFailure(message: "out of memory")) }
        PostgresNotices.install(on: handle)
        func failed(_ message: String? = nil) -> Result<OpaquePointer, StartFailure> {
            let text = message ?? PQerrorMessage(handle).map { String(cString: $0) } ?? "out of memory"
            PQfinish(handle)
            return .failure(StartFailure(message: oneLine(text)))
        }
        guard PQstatus(handle) != CONNECTION_BAD else { return failed() }
        let timeout = connectTimeout(handle)
        let deadline = timeout.map { DispatchTime.now().uptimeNanoseconds + UInt64($0) * 1_000_000_000 }
        var state = PGRES_POLLING_WRITING
        while state != PGRES_POLLING_OK && state != PGRES_POLLING_FAILED {
            var descriptor = pollfd(fd: PQsocket(handle), events: Int16(state == PGRES_POLLING_READING ? POLLIN : POLLOUT), revents: 0)
            let left = deadline.map { Int32(clamping: (Int64($0) - Int64(DispatchTime.now().uptimeNanoseconds)) / 1_000_000) }
            // As libpq words it when its own timer runs out.
            if let left, left <= 0 { return failed("timeout expired") }
            let ready = poll(&descriptor, 1, left.map { max(1, $0) } ?? -1)
            if ready < 0 && errno != EINTR { return failed("poll() failed: \(String(cString: strerror(errno)))") }
            if ready <= 0 { continue }
            state = PQconnectPoll(handle)
        }
        return state == PGRES_POLLING_OK && PQstatus(handle) == CONNECTION_OK ? .success(handle) : failed()
    }

    /// Why a connection could not be opened.
    struct StartFailure: Error {
        let message: String
    }

    /// libpq's text on one line.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    /// The connection's `connect_timeout` in seconds (libpq takes less than 2
    /// as 2), nil for none.
    private static func connectTimeout(_ handle: OpaquePointer) -> Int? {
        guard let options = PQconninfo(handle) else { return nil }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "connect_timeout", let value = option.pointee.val,
                let seconds = Int(String(cString: value).trimmingCharacters(in: .whitespaces)), seconds > 0
            {
                return max(2, seconds)
            }
            option += 1
        }
        return nil
    }
}
