import FolioProcessSupport
import FolioTerminal
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real program on a real pseudo-terminal, driven directly: keys in, the
/// screen kept by a `TerminalEmulator`, and the program's debug state
/// (`FOLIO_DEBUG_STATE=1`) read in-band after each frame. Waiting is by
/// state, never by sleeping: `settle()` returns once the program has handled
/// every byte sent and drawn the frame for it.
///
/// ```swift
/// let app = try PtyApp(folio, ["planets", "--store", store], columns: 80, rows: 24)
/// try app.waitFor("Mercury")
/// try app.press("Down", "Left")
/// #expect(app.text.contains("Delete"))
/// app.close()
/// ```
public final class PtyApp: @unchecked Sendable {  // driven from one test thread at a time
    /// Why a wait gave up: what was expected, with the screen and state then.
    public struct Timeout: Error, CustomStringConvertible {
        /// What was waited for.
        public let expected: String
        /// The screen when the wait gave up.
        public let screen: String
        /// The last debug state.
        public let state: [String: String]

        /// The expectation, the screen and the state.
        public var description: String {
            "timed out waiting for \(expected); state \(state.sorted { $0.key < $1.key }); the screen was:\n\(screen)"
        }
    }

    /// The pty the program runs on.
    public let terminal: PseudoTerminal
    /// The program's process id.
    public let pid: pid_t
    /// The terminal's modes before the program started: what it must restore.
    public let initialModes: termios
    /// The screen as the program drew it.
    public private(set) var emulator: TerminalEmulator
    /// The last debug state the program sent.
    public private(set) var state: [String: String] = [:]
    /// How many debug states have arrived.
    public private(set) var statesReceived = 0
    /// Every byte the program wrote, when `keepsOutput` is set.
    public private(set) var output: [UInt8] = []
    /// Whether to keep `output` (for tests of what reaches the terminal).
    public var keepsOutput = false
    private var sent = 0
    private var carry: [UInt8] = []
    private var exit: (code: Int32?, signal: Int32?)?
    private(set) var columns: Int
    private(set) var rows: Int

    /// Starts `executable` on a `columns`×`rows` pty with the debug state on,
    /// in a minimal environment plus `environment`, and waits for its first frame.
    public init(
        _ executable: URL, _ arguments: [String], columns: Int = 80, rows: Int = 24,
        environment: [String: String] = [:], timeout: Double = 20
    ) throws {
        try BlockingWork.refuseMainActor("driving \(executable.lastPathComponent) on a pty")
        terminal = try PseudoTerminal(columns: columns, rows: rows)
        self.columns = columns
        self.rows = rows
        emulator = TerminalEmulator(width: columns, height: rows)
        let base = ProcessInfo.processInfo.environment
        var env = ["TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", Self.debugVariable: "1"]
        for key in ["HOME", "PATH"] { env[key] = base[key] }
        env.merge(environment) { $1 }
        initialModes = terminal.modes()
        // Writes that would block return at once, so `send` can read output meanwhile.
        _ = fcntl(terminal.primary, F_SETFL, fcntl(terminal.primary, F_GETFL) | O_NONBLOCK)
        pid = try terminal.spawn(executable.path, arguments, environment: env)
        try waitUntil("the first frame", timeout: timeout) { app in app.statesReceived > 0 }
    }

    /// The variable that turns the program's debug state on.
    public static let debugVariable = "FOLIO_DEBUG_STATE"

    deinit { close() }

    /// The screen as text, one line per row, trailing blanks dropped.
    public var text: String {
        (0..<emulator.screen.height).map {
            emulator.screen.line($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        .joined(separator: "\n")
    }

    /// The screen's lines, trailing blanks dropped.
    public var lines: [String] { text.components(separatedBy: "\n") }

    /// The screen's words in reading order, box lines and runs of blanks
    /// made single spaces: for text that a box may have wrapped.
    public var words: String {
        let boxes = Set("│─┌┐└┘├┤")
        let spaced = String(text.map { boxes.contains($0) || $0 == "\n" ? " " : $0 })
        return spaced.split(separator: " ").joined(separator: " ")
    }

    /// Sends tmux-style key names (`Down`, `Enter`, `Escape`, `S-Up`, `C-c`,
    /// `BSpace`, `PgDn`…) or single characters, settling after each. A key
    /// that ends the program goes by ``send(_:)`` before ``waitForExit()``:
    /// settling waits for a state the program no longer reports.
    public func press(_ keys: String..., timeout: Double = 20) throws {
        for key in keys {
            send(Self.bytes(forKey: key))
            try settle(timeout: timeout)
        }
    }

    /// Types text as a keyboard would (no bracketed paste), then settles.
    public func type(_ text: String, timeout: Double = 20) throws {
        send(Array(text.utf8))
        try settle(timeout: timeout)
    }

    /// Pastes text as a terminal does with bracketed paste, then settles.
    public func paste(_ text: String, timeout: Double = 60) throws {
        send(Array("\u{1B}[200~".utf8) + Array(text.utf8) + Array("\u{1B}[201~".utf8))
        try settle(timeout: timeout)
    }

    /// A left click at a screen cell (0-based), as SGR mouse reports.
    public func click(column: Int, row: Int) throws {
        send(Array("\u{1B}[<0;\(column + 1);\(row + 1)M\u{1B}[<0;\(column + 1);\(row + 1)m".utf8))
        try settle()
    }

    /// A leftward drag along a row, from `from` to `to` (columns).
    public func drag(row: Int, from: Int, to: Int) throws {
        var bytes = Array("\u{1B}[<0;\(from + 1);\(row + 1)M".utf8)
        bytes += Array("\u{1B}[<32;\(to + 1);\(row + 1)M".utf8)
        bytes += Array("\u{1B}[<0;\(to + 1);\(row + 1)m".utf8)
        send(bytes)
        try settle()
    }

    /// The mouse wheel at a cell: `down` scrolls down.
    public func wheel(column: Int, row: Int, down: Bool) throws {
        send(Array("\u{1B}[<\(down ? 65 : 64);\(column + 1);\(row + 1)M".utf8))
        try settle()
    }

    /// Sends raw bytes, reading the program's output while the terminal's
    /// input buffer is full: a program drawing while it reads would
    /// otherwise block on its output as the test blocks on its input.
    public func send(_ bytes: [UInt8]) {
        sent += bytes.count
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBufferPointer { buffer in
                Glibc.write(terminal.primary, buffer.baseAddress! + offset, min(4096, buffer.count - offset))
            }
            if written > 0 {
                offset += written
            } else if written < 0 && errno != EAGAIN && errno != EINTR {
                return
            } else {
                if hasExited { return }
                pump(timeout: 0.01)
            }
        }
    }

    /// Resizes the terminal and waits for the frame at the new size.
    public func resize(columns: Int, rows: Int, timeout: Double = 20) throws {
        // What was drawn at the old size is read first; the frame at the new
        // size is a full redraw, which the emulator takes at that size.
        try settle(timeout: timeout)
        terminal.setSize(columns: columns, rows: rows)
        self.columns = columns
        self.rows = rows
        emulator = TerminalEmulator(width: columns, height: rows)
        let framesBefore = Int(state["frames"] ?? "") ?? 0
        kill(pid, SIGWINCH)
        // A frame composed after the signal: one that a live change drew
        // meanwhile may already report the new size.
        try waitUntil("a frame at \(columns)x\(rows)", timeout: timeout) { app in
            app.state["columns"] == "\(columns)" && app.state["rows"] == "\(rows)"
                && (Int(app.state["frames"] ?? "") ?? 0) > framesBefore
        }
    }

    /// Waits until the program has handled every byte sent and drawn its frame.
    public func settle(timeout: Double = 20) throws {
        try waitUntil("the program to handle \(sent) bytes", timeout: timeout) { app in
            (Int(app.state["input"] ?? "") ?? -1) >= app.sent && app.state["pending"] == "0"
        }
    }

    /// Waits until the screen contains `text`; returns the screen.
    @discardableResult
    public func waitFor(_ text: String, timeout: Double = 20) throws -> String {
        try waitUntil("'\(text)'", timeout: timeout) { $0.text.contains(text) }
        return self.text
    }

    /// Waits until the screen no longer contains `text`.
    public func waitForAbsence(of text: String, timeout: Double = 20) throws {
        try waitUntil("'\(text)' to go", timeout: timeout) { !$0.text.contains(text) }
    }

    /// Reads the program's output until `condition` holds (checked after
    /// each read) or `timeout` seconds pass.
    public func waitUntil(_ what: String, timeout: Double = 20, _ condition: (PtyApp) -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition(self) {
            if hasExited { throw Timeout(expected: what + " (the program ended: \(exit!))", screen: text, state: state) }
            guard Date() < deadline else { throw Timeout(expected: what, screen: text, state: state) }
            pump(timeout: 0.05)
        }
    }

    /// Reads what the program wrote (waiting up to `timeout` for the first byte).
    public func pump(timeout: Double) {
        let bytes = terminal.readAvailable(timeout: timeout)
        if bytes.isEmpty {
            reap()
            return
        }
        if keepsOutput { output += bytes }
        consume(bytes)
    }

    /// Whether the program has ended.
    public var hasExited: Bool {
        reap()
        return exit != nil
    }

    /// Waits for the program to end: its exit code, or the signal that ended it.
    @discardableResult
    public func waitForExit(timeout: Double = 20) throws -> (code: Int32?, signal: Int32?) {
        let deadline = Date().addingTimeInterval(timeout)
        while !hasExited {
            guard Date() < deadline else { throw Timeout(expected: "the program to exit", screen: text, state: state) }
            pump(timeout: 0.05)
        }
        // What it wrote last (the terminal restored) is still in the pty.
        while true {
            let bytes = terminal.readAvailable(timeout: 0.05)
            if bytes.isEmpty { break }
            if keepsOutput { output += bytes }
            consume(bytes)
        }
        return exit!
    }

    /// Ends the program if it still runs.
    public func close() {
        guard exit == nil else { return }
        reap()
        guard exit == nil else { return }
        kill(pid, SIGKILL)
        exit = PseudoTerminal.wait(pid, timeout: 10)
    }

    private func reap() {
        guard exit == nil else { return }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            let signal = status & 0x7F
            exit = signal == 0 ? ((status >> 8) & 0xFF, nil) : (nil, signal)
        }
    }

    /// Splits the output into debug states (DCS `folio-state;…`) and what the
    /// emulator draws, holding back a sequence cut at the end of a read.
    private func consume(_ bytes: [UInt8]) {
        let data = carry + bytes
        carry = []
        var drawable: [UInt8] = []
        drawable.reserveCapacity(data.count)
        var index = 0
        while index < data.count {
            let byte = data[index]
            guard byte == 0x1B else {
                drawable.append(byte)
                index += 1
                continue
            }
            guard index + 1 < data.count else { carry = Array(data[index...]); break }
            if data[index + 1] == UInt8(ascii: "P") {
                // DCS … ESC \
                var end = index + 2
                while end + 1 < data.count, !(data[end] == 0x1B && data[end + 1] == UInt8(ascii: "\\")) { end += 1 }
                guard end + 1 < data.count else { carry = Array(data[index...]); break }
                // Everything before this state is drawn before the state is read.
                emulator.apply(drawable)
                drawable = []
                receiveState(String(decoding: data[(index + 2)..<end], as: UTF8.self))
                index = end + 2
                continue
            }
            if data[index + 1] == UInt8(ascii: "[") {
                var end = index + 2
                while end < data.count, (0x20...0x3F).contains(data[end]) { end += 1 }
                guard end < data.count else { carry = Array(data[index...]); break }
                drawable += data[index...end]
                index = end + 1
                continue
            }
            drawable.append(byte)
            index += 1
        }
        // A UTF-8 character cut at the end of the read waits for its rest.
        if carry.isEmpty, let cut = InputParser.incompleteUTF8Start(drawable) {
            carry = Array(drawable[cut...])
            drawable.removeSubrange(cut...)
        }
        emulator.apply(drawable)
    }

    private func receiveState(_ payload: String) {
        let prefix = "folio-state;"
        guard payload.hasPrefix(prefix),
            let object = try? JSONSerialization.jsonObject(with: Data(payload.dropFirst(prefix.count).utf8)) as? [String: String]
        else {
            return
        }
        state = object
        statesReceived += 1
    }

    /// The bytes a key name stands for.
    public static func bytes(forKey key: String) -> [UInt8] {
        let named: [String: String] = [
            "Up": "\u{1B}[A", "Down": "\u{1B}[B", "Right": "\u{1B}[C", "Left": "\u{1B}[D",
            "S-Up": "\u{1B}[1;2A", "S-Down": "\u{1B}[1;2B", "Home": "\u{1B}[H", "End": "\u{1B}[F",
            "PgUp": "\u{1B}[5~", "PgDn": "\u{1B}[6~", "Delete": "\u{1B}[3~", "DC": "\u{1B}[3~",
            "Enter": "\r", "Escape": "\u{1B}", "Tab": "\t", "BTab": "\u{1B}[Z", "BSpace": "\u{7F}",
            "Space": " ", "C-c": "\u{03}", "C-z": "\u{1A}", "C-u": "\u{15}",
        ]
        return Array((named[key] ?? key).utf8)
    }
}
