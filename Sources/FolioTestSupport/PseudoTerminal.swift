import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real pseudo-terminal pair for tests: a program runs on the secondary
/// side while the test reads what it wrote and inspects the terminal modes.
final class PseudoTerminal {
    let primary: Int32
    let secondary: Int32

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init() throws {
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
        var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(secondary, UInt(TIOCSWINSZ), &size)
    }

    private var primaryOpen = true

    deinit {
        if primaryOpen { close(primary) }
        close(secondary)
    }

    /// Hangs up: closes the primary side, as a terminal window closing does.
    func hangUp() {
        guard primaryOpen else { return }
        primaryOpen = false
        close(primary)
    }

    /// The probe program, built with the package next to the test bundle.
    static var probe: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("folio-terminal-probe").path
    }

    /// The secondary side's current modes.
    func modes() -> termios {
        var modes = termios()
        tcgetattr(secondary, &modes)
        return modes
    }

    /// Starts a program with the secondary side as its standard streams.
    func spawn(_ path: String, _ arguments: [String]) throws -> pid_t {
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
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard result == 0 else { throw Failure(description: "posix_spawn \(path): \(result)") }
        return pid
    }

    /// Reads until `marker` appears or `timeout` seconds pass; returns all read.
    func read(until marker: String?, timeout: Double) -> String {
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
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBufferPointer { write(primary, $0.baseAddress, $0.count) }
    }

    /// Waits until a process stops (SIGSTOP); false on timeout.
    static func waitStopped(_ pid: pid_t, timeout: Double = 20) -> Bool {
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if waitpid(pid, &status, WNOHANG | WUNTRACED) == pid, status & 0xFF == 0x7F { return true }
            usleep(10_000)
        }
        return false
    }

    /// Waits for a process; returns (exit code, signal) with one of them nil.
    static func wait(_ pid: pid_t, timeout: Double = 20) -> (code: Int32?, signal: Int32?) {
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
