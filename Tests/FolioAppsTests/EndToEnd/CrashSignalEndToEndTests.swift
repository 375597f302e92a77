import FolioTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EndToEnd {
    /// A crash signal at any moment of the release binary's start-up ends
    /// it at once, by that signal, with the terminal as it was: never
    /// Swift's backtracer waiting for a key over a half-drawn app.
    @Suite struct CrashSignalEndToEndTests {
        static let signals = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]
        /// Milliseconds after the start; nil is the moment the first byte arrives.
        static let moments: [Int?] = [0, 1, 2, 5, 10, 15, 20, 25, 30, 40, 50, 60, 80, nil]

        @Test func aCrashSignalEarlyInStartUpEndsTheAppWithTheTerminalRestored() throws {
            let planets = try FolioBinary("planets")
            try planets.run("list")
            for signal in Self.signals {
                for moment in Self.moments {
                    let at = moment.map { "\($0) ms" } ?? "the first byte"
                    let run = try Self.start(planets, signalling: signal, at: moment)
                    let what = "signal \(signal) at \(at)"
                    #expect(
                        run.signal == signal,
                        "\(what): ended by \(run.signal.map(String.init) ?? "nothing") \(run.ended ? "" : "(still running after 20 s)")")
                    #expect(!run.output.contains("Press space"), "\(what): \(run.output.suffix(300).debugDescription)")
                    #expect(run.restored, "\(what): the terminal's modes were not put back")
                    for (on, off) in [("\u{1B}[?1049h", "\u{1B}[?1049l"), ("\u{1B}[?1002h", "\u{1B}[?1002l")] {
                        let opened = run.output.components(separatedBy: on).count, closed = run.output.components(separatedBy: off).count
                        #expect(opened <= closed, "\(what): \(on.debugDescription) left on: \(run.output.suffix(300).debugDescription)")
                    }
                }
            }
        }

        struct Run {
            var ended = false
            var signal: Int32?
            var output = ""
            var restored = false
        }

        /// Starts the app on a fresh pty, sends `signal` at `moment`, and waits up to 20 s for the end.
        static func start(_ planets: FolioBinary, signalling signal: Int32, at moment: Int?) throws -> Run {
            let pty = try PseudoTerminal(columns: 80, rows: 24)
            let modes = pty.modes()
            let environment = [
                "TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin",
            ]
            let pid = try pty.spawn(planets.binary.path, ["planets", "--store", planets.store], environment: environment)
            var output: [UInt8] = []
            if let moment {
                usleep(useconds_t(moment * 1000))
            } else {
                while output.isEmpty { output += pty.readAvailable(timeout: 10) }
            }
            kill(pid, signal)
            var run = Run()
            let deadline = Date().addingTimeInterval(20)
            var status: Int32 = 0
            while Date() < deadline {
                output += pty.readAvailable(timeout: 0.02)
                if waitpid(pid, &status, WNOHANG) == pid {
                    run.ended = true
                    break
                }
            }
            if !run.ended {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
            } else if status & 0x7F != 0 {
                run.signal = status & 0x7F
            }
            output += Array(pty.read(until: nil, timeout: 2).utf8)  // all that is left, not one read's worth
            run.output = String(decoding: output, as: UTF8.self)
            let after = pty.modes()
            run.restored = run.ended && after.c_lflag == modes.c_lflag && after.c_iflag == modes.c_iflag && after.c_oflag == modes.c_oflag
            return run
        }
    }
}
