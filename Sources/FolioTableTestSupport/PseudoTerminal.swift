import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real pseudo-terminal pair for tests: a program runs on the secondary
/// side while the test reads what it wrote and inspects the terminal modes.
///
/// ```swift
/// let pty = try PseudoTerminal()
/// let pid = try pty.spawn("/bin/cat", [])
/// pty.type("hello")
/// ```
public final class PseudoTerminal: @unchecked Sendable {  // used from one test at a time; the descriptors never change
    /// The side the test reads and writes (the "keyboard and screen").
    public let primary: Int32
    /// The side the program's standard streams are.
    public let secondary: Int32

    /// Why the pty could not be made or a program started.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed.
        public var description: String
    }

    /// Opens a pty pair at 80x24.
    public init(columns: Int = 80, rows: Int = 24) throws {
        primary = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard primary >= 0 else { throw Failure(description: "open /dev/ptmx: errno \(errno)") }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        // TIOCSPTLCK and TIOCGPTN (Linux's generic ioctl numbers; not exported to Swift).
        guard ioctl(primary, 0x4004_5431, &unlock) == 0, ioctl(primary, 0x8004_5430, &number) == 0 else {
            throw Failure(description: "unlocking the pty failed: errno \(errno)")
        }
        secondary = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard secondary >= 0 else { throw Failure(description: "open /dev/pts/\(number): errno \(errno)") }
        setSize(columns: columns, rows: rows)
    }

    private var primaryOpen = true

    deinit {
        if primaryOpen { close(primary) }
        close(secondary)
    }

    /// Sets the terminal's size (the program learns of it on SIGWINCH).
    public func setSize(columns: Int, rows: Int) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(secondary, UInt(TIOCSWINSZ), &size)
    }

    /// Hangs up: closes the primary side, as a terminal window closing does.
    public func hangUp() {
        guard primaryOpen else { return }
        primaryOpen = false
        close(primary)
    }

    /// The secondary side's current modes.
    public func modes() -> termios {
        var modes = termios()
        tcgetattr(secondary, &modes)
        return modes
    }

    /// Starts a program with the secondary side as its standard streams, in
    /// `environment` (this process's when nil).
    public func spawn(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for target in Int32(0)...2 { posix_spawn_file_actions_adddup2(&actions, secondary, target) }
        posix_spawn_file_actions_addclose(&actions, primary)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The test runner may block or ignore signals; the child starts clean.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { envp?.forEach { free($0) } }
        let result =
            envp.map { posix_spawn(&pid, path, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard result == 0 else { throw Failure(description: "posix_spawn \(path): \(result)") }
        return pid
    }

    /// Reads until `marker` appears or `timeout` seconds pass; returns all read.
    public func read(until marker: String?, timeout: Double) -> String {
        var collected: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            var descriptor = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 50)
            if ready > 0 {
                let count = Glibc.read(primary, &buffer, buffer.count)
                if count <= 0 { break }
                collected += buffer[..<count]
                if let marker, String(decoding: collected, as: UTF8.self).contains(marker) { break }
            } else if marker == nil && ready == 0 {
                break
            }
        }
        return String(decoding: collected, as: UTF8.self)
    }

    /// Types bytes into the terminal, as a keyboard would.
    public func type(_ text: String) {
        write(Array(text.utf8))
    }

    /// Writes bytes to the program's input, all of them.
    public func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBufferPointer { Glibc.write(primary, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && (errno == EINTR || errno == EAGAIN) { usleep(1000); continue }
            if written <= 0 { return }
            offset += written
        }
    }

    /// Reads what is available now, waiting at most `timeout` seconds for the
    /// first byte; empty when nothing came or the program hung up.
    public func readAvailable(timeout: Double) -> [UInt8] {
        var descriptor = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(max(0, timeout * 1000))) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = Glibc.read(primary, &buffer, buffer.count)
        return count > 0 ? Array(buffer[..<count]) : []
    }

    /// Waits until a process stops (SIGSTOP); false on timeout.
    public static func waitStopped(_ pid: pid_t, timeout: Double = 20) -> Bool {
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if waitpid(pid, &status, WNOHANG | WUNTRACED) == pid, status & 0xFF == 0x7F { return true }
            usleep(10_000)
        }
        return false
    }

    /// Waits for a process; returns (exit code, signal) with one of them nil.
    public static func wait(_ pid: pid_t, timeout: Double = 20) -> (code: Int32?, signal: Int32?) {
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                let signal = status & 0x7F
                return signal == 0 ? ((status >> 8) & 0xFF, nil) : (nil, signal)
            }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        return (nil, nil)
    }
}
