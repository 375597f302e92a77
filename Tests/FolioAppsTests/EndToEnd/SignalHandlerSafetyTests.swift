import FolioTestSupport
import Foundation
import Testing

/// A signal handler may call only async-signal-safe functions (signal-safety(7)).
/// A handler that interrupts `malloc` and then allocates — directly, or through
/// `swift_once` building a lazily initialised global — waits forever for a
/// lock its own thread holds: the app restores the terminal and then hangs
/// instead of dying. This reads the release `folio`'s machine code and follows
/// every call its handlers make, so any such call fails here, not one run in
/// a hundred under load.
@Suite struct SignalHandlerSafetyTests {
    /// What the handlers may call: restoring the terminal, then dying.
    static let allowed: Set<String> = [
        "write", "read", "tcsetattr", "dup2", "lseek", "close", "signal", "raise", "pthread_self", "pthread_kill", "pause",
    ]

    /// The handlers the program installs: the terminal's, and the one that
    /// holds the crash signals before Swift's runtime loads.
    static let handlers = [
        #"terminalSignalHandler.*Int32VFTo$"#,
        #"takeCrashSignalsBeforeTheRuntime.*Int32VcfU_To$"#,
    ]

    @Test func theSignalHandlersCallOnlyAsyncSignalSafeFunctions() throws {
        let binary = try AppProcess.folioBinary().path
        let symbols = try ProgramRun.output("/usr/bin/nm", [binary]).split(separator: "\n").compactMap { $0.split(separator: " ").last }
        for pattern in Self.handlers {
            let regex = try Regex(pattern)
            let handler = try #require(symbols.first { $0.contains(regex) }, "no handler symbol matches \(pattern)")
            let calls = try Self.externalCalls(from: String(handler), in: binary)
            #expect(calls.contains("raise"), "\(pattern) reached no raise(3): the walk found \(calls.sorted())")
            let unsafe = calls.subtracting(Self.allowed)
            #expect(unsafe.isEmpty, "\(pattern) calls what a signal handler must not: \(unsafe.sorted())")
        }
    }

    /// The library functions reachable from `symbol` through direct calls and
    /// tail jumps; "indirect" stands for a call through a register.
    private static func externalCalls(from symbol: String, in binary: String) throws -> Set<String> {
        var external: Set<String> = []
        var pending = [symbol]
        var visited: Set<String> = []
        while let function = pending.popLast() {
            guard visited.insert(function).inserted else { continue }
            let code = try ProgramRun.output("/usr/bin/objdump", ["-d", "--no-show-raw-insn", "--disassemble=\(function)", binary])
            for line in code.split(separator: "\n") {
                let fields = line.split(separator: "\t")
                guard fields.count >= 2 else { continue }
                let instruction = fields[1].trimmingCharacters(in: .whitespaces)
                guard instruction.hasPrefix("call") || instruction.hasPrefix("jmp") else { continue }
                if instruction.contains("*") {
                    external.insert("indirect")
                    continue
                }
                guard let open = instruction.firstIndex(of: "<"), let close = instruction.lastIndex(of: ">") else { continue }
                let target = instruction[instruction.index(after: open)..<close]
                if target.hasSuffix("@plt") {
                    external.insert(String(target.dropLast(4)))
                } else {
                    let name = String(target.split(separator: "+").first ?? target)
                    if name != function { pending.append(name) }
                }
            }
        }
        return external
    }
}
