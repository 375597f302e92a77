import FolioLocking
import Foundation

/// A child process whose stdout lines are collected with their arrival
/// times, for tests that need a real second process (crash and two-process tests).
///
///     let child = try StoreChildProcess(executable: StoreChildProcess.sibling("folio-store-worker"), arguments: ["watch", path])
///     _ = await child.waitForLine { $0 == "ready" }
///     await child.kill()
public final class StoreChildProcess: Sendable {
    private let process: ChildProcess
    /// What the reading thread has gathered, owned by its lock.
    private struct Output {
        var collected: [(line: String, at: Date)] = []
        var buffer = Data()
        var ended = false
    }
    private let lock = LockedValue(Output())

    /// Starts `executable` with `arguments`.
    ///
    /// Its output is read by a thread of its own with blocking reads, until
    /// end of file. (A `readabilityHandler` watches the pipe with a dispatch
    /// source, and closing the pipe while that source is still being
    /// cancelled crashed the test process in `_dispatch_event_loop_drain`.)
    public init(executable: URL, arguments: [String]) throws {
        process = try ChildProcess(executable.path, arguments, input: .pipe, output: .pipe, errors: .inherit)
        guard let reading = process.output else { preconditionFailure("a child started with .pipe has its output") }
        Thread.detachNewThread { [weak self] in
            while true {
                let data = reading.availableData
                self?.receive(data)
                if data.isEmpty { return }
            }
        }
    }

    /// An executable built beside the running test binary (for example `folio-store-worker`).
    public static func sibling(_ name: String) -> URL {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return exe.deletingLastPathComponent().appendingPathComponent(name)
    }

    private func receive(_ data: Data) {
        let now = Date()
        lock.withLock { output in
            if data.isEmpty { output.ended = true; return }
            output.buffer.append(data)
            while let newline = output.buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: output.buffer[output.buffer.startIndex..<newline], as: UTF8.self)
                output.buffer = Data(output.buffer[output.buffer.index(after: newline)...])
                output.collected.append((line, now))
            }
        }
    }

    /// Every complete line so far with the time it arrived.
    public var lines: [(line: String, at: Date)] {
        lock.withLock { $0.collected }
    }

    /// Waits up to `timeout` seconds for a line matching `predicate`; returns it and its arrival time.
    ///
    /// The wait suspends rather than blocks: a main-actor test that waits
    /// for a child leaves the main actor to every other test meanwhile.
    /// It ends when the child's output does, so a child that dies fails the
    /// wait at once; the deadline only catches a child that hangs, and is
    /// long because a loaded machine can slow a healthy child tenfold.
    public func waitForLine(
        timeout: Double = 600, _ predicate: @Sendable (String) -> Bool
    ) async -> (line: String, at: Date)? {
        // A process that ended (its output read to the end) prints nothing more:
        // a crashed worker fails its wait at once, not at the deadline.
        let found = await Self.poll(timeout: timeout) { () -> (line: String, at: Date)?? in
            self.lock.withLock { output in
                if let hit = output.collected.first(where: { predicate($0.line) }) { return .some(hit) }
                return output.ended ? .some(nil) : nil
            }
        }
        return found ?? nil
    }

    /// Sends SIGKILL and waits for the process to end and its output to drain.
    public func kill() async {
        process.send(SIGKILL)
        await waitForExit()
        _ = await Self.poll(timeout: 10) { self.lock.withLock { $0.ended } ? true : nil }
    }

    /// Closes the child's stdin (the worker's signal to exit) and waits for it.
    public func finish() async {
        closeInput()
        await waitForExit()
    }

    /// Waits, suspended, until the process has ended (it always does: the
    /// workers exit at end of input, and `kill()` sends SIGKILL).
    private func waitForExit() async {
        _ = await Self.poll(timeout: .infinity) { self.process.isRunning ? nil : true }
    }

    /// Checks `probe` every millisecond, suspended in between, until it gives
    /// a value or `timeout` seconds have passed.
    private static func poll<T>(timeout: Double, _ probe: () -> T?) async -> T? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let value = probe() { return value }
            try? await Task.sleep(for: .milliseconds(1))
        } while Date() < deadline
        return probe()
    }

    /// Writes one line to the child's stdin.
    public func send(_ line: String) {
        try? process.input?.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Closes the child's stdin without waiting (to start several workers at once).
    public func closeInput() {
        try? process.input?.close()
    }

    /// The exit status once ended.
    public var terminationStatus: Int32 { process.wait() }

    /// The child's process ID.
    public var processIdentifier: Int32 { process.pid }

    /// Stops the child as Ctrl-Z would (SIGSTOP) and waits until the kernel
    /// reports it stopped; false if it never did. ``resume()`` continues it.
    @discardableResult
    public func suspend(timeout: Double = 60) async -> Bool {
        process.send(SIGSTOP)
        return await Self.poll(timeout: timeout) { self.state == "T" || self.state == "t" ? true : nil } ?? false
    }

    /// The process state letter from `/proc/PID/stat` (`R`, `S`, `T` for stopped…).
    public var state: Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(after: close)...].first { $0 != " " }
    }

    /// Continues a suspended child (SIGCONT), as `fg` does.
    public func resume() { process.send(SIGCONT) }
}
