import Foundation
import Synchronization

/// A real program running in a real terminal: a detached tmux session on a
/// private server socket. Send keys, read the screen, wait for text.
///
/// ```swift
/// let term = try AppTerminal(["/path/to/folio", "planets", "--store", store])
/// try term.waitFor("Mercury")
/// term.press("Down", "Left", "Enter")          // swipe, Delete
/// try term.waitFor("Delete Planet")
/// term.close()
/// ```
public final class AppTerminal: Sendable {
    /// Why a wait failed: the text never showed, with the last screen.
    public struct Timeout: Error, CustomStringConvertible {
        /// What was waited for.
        public let expected: String
        /// The screen when the wait gave up.
        public let screen: String

        /// The expectation and the screen.
        public var description: String {
            "timed out waiting for \(expected); the screen was:\n\(screen)"
        }
    }

    /// A tmux command that failed, with its output.
    public struct Failure: Error, CustomStringConvertible {
        /// The tmux command, e.g. "capture-pane".
        public let command: String
        /// What tmux said.
        public let result: AppProcess.Result

        /// The command and tmux's answer.
        public var description: String { "tmux \(command) failed: \(result)" }
    }

    private let socket: String
    private let target = "folio"
    private let config: URL
    private let closed = Atomic(false)

    /// Starts `command` in a `width`×`height` terminal with `environment`
    /// added to a minimal one (`TERM=xterm-256color`, `HOME`, `PATH`, `LANG`).
    public init(_ command: [String], width: Int = 100, height: Int = 30, environment: [String: String] = [:]) throws {
        let name = "folio-e2e-\(getpid())-\(UUID().uuidString.prefix(8))"
        socket = "/tmp/\(name).sock"  // short: a socket path is limited to 107 bytes
        config = FileManager.default.temporaryDirectory.appendingPathComponent("\(name).conf")
        try "set -g remain-on-exit on\nset -g history-limit 0\nset -sg escape-time 0\n".write(to: config, atomically: true, encoding: .utf8)
        let base = ProcessInfo.processInfo.environment
        var env = ["TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]
        for key in ["HOME", "PATH"] { env[key] = base[key] }
        env.merge(environment) { $1 }
        let envArgs = env.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        try tmux(["new-session", "-d", "-s", target, "-x", "\(width)", "-y", "\(height)", "--", "/usr/bin/env", "-i"] + envArgs + command)
    }

    /// Sends tmux key names (`Enter`, `Escape`, `Up`, `S-Up`, `Left`, `BSpace`, `q`…), one key each.
    /// After `Escape` it pauses as a person would: a key that follows an ESC
    /// at once is read as Alt plus that key.
    public func press(_ keys: String...) {
        for key in keys {
            send(["send-keys", "-t", target, key])
            if key == "Escape" { Thread.sleep(forTimeInterval: 0.15) }
        }
    }

    /// Types `text` literally.
    public func type(_ text: String) {
        send(["send-keys", "-t", target, "-l", "--", text])
    }

    /// The screen as text, one line per row, trailing spaces dropped
    /// ("" when tmux could not be asked).
    public func screen() -> String {
        capture() ?? ""
    }

    /// The screen, or nil when tmux did not answer (a busy machine): waits
    /// never take a failed capture for an empty screen.
    private func capture() -> String? {
        guard let text = try? tmux(["capture-pane", "-p", "-t", target]) else { return nil }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }
            .joined(separator: "\n")
    }

    /// Waits until the screen contains `text`; returns that screen.
    @discardableResult
    public func waitFor(_ text: String, timeout: Double = 10) throws -> String {
        try waitUntil("'\(text)'", timeout: timeout) { $0.contains(text) }
    }

    /// Waits until the screen no longer contains `text`; returns that screen.
    @discardableResult
    public func waitForAbsence(of text: String, timeout: Double = 10) throws -> String {
        try waitUntil("'\(text)' to go", timeout: timeout) { !$0.contains(text) }
    }

    /// Waits until `condition` holds for the screen (polled every 50 ms) on
    /// two captures in a row, so that a frame caught half-written never counts.
    @discardableResult
    public func waitUntil(_ what: String, timeout: Double = 10, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = capture()
        var held = false
        while true {
            if let last, condition(last) {
                if held { return last }
                held = true
            } else {
                held = false
                if Date() > deadline { throw Timeout(expected: what, screen: last ?? "(tmux did not answer)") }
            }
            Thread.sleep(forTimeInterval: 0.05)
            last = capture()
        }
    }

    /// The program's exit status once it has ended, else nil.
    public func exitStatus() -> Int32? {
        let info = (try? tmux(["display-message", "-p", "-t", target, "#{pane_dead}|#{pane_dead_status}|#{pane_pid}"])) ?? ""
        let parts = info.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        if parts[0] == "1", let status = Int32(parts[1]) { return status }
        // tmux sometimes sees the pty close but never reaps the program (its
        // SIGCHLD is lost); the kernel still holds the zombie's exit status.
        if let pid = Int32(parts[2]) { return Self.zombieStatus(pid) }
        return nil
    }

    /// The exit status of `pid` if it is a zombie, from /proc/PID/stat (field 52).
    static func zombieStatus(_ pid: Int32) -> Int32? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.first == "Z", fields.count >= 50, let raw = Int32(fields[49].trimmingCharacters(in: .whitespacesAndNewlines)) else {
            return nil
        }
        return (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
    }

    /// Waits for the program to end and returns its exit status.
    public func waitForExit(timeout: Double = 20) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let status = exitStatus() { return status }
            if Date() > deadline { throw Timeout(expected: "the program to exit", screen: screen()) }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Ends the tmux server (and the program, if still running).
    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // A busy machine can make tmux refuse once; never leave a server behind.
        let server = (try? tmux(["display-message", "-p", "#{pid}"])).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        var stopped = false
        for _ in 0..<5 where !stopped {
            stopped = (try? tmux(["kill-server"])) != nil
            if !stopped { Thread.sleep(forTimeInterval: 0.1) }
        }
        if !stopped, let server { kill(server, SIGKILL) }
        try? FileManager.default.removeItem(atPath: socket)  // tmux leaves its socket file behind
        try? FileManager.default.removeItem(at: config)
    }

    deinit {
        close()
    }

    /// Sends keys, retrying while tmux is too busy to answer, so a key is never lost.
    private func send(_ arguments: [String]) {
        for attempt in 0..<20 {
            if (try? tmux(arguments)) != nil { return }
            Thread.sleep(forTimeInterval: 0.05 * Double(attempt + 1))
        }
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        // tmux wants a TERM even for detached work; CI may have none.
        var environment = ProcessInfo.processInfo.environment
        if (environment["TERM"] ?? "").isEmpty || environment["TERM"] == "dumb" { environment["TERM"] = "xterm-256color" }
        let result = try AppProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["tmux", "-S", socket, "-f", config.path] + arguments, environment: environment)
        guard result.status == 0 else { throw Failure(command: arguments.first ?? "", result: result) }
        return result.stdout
    }
}
