import FolioTestSupport
import Foundation
import Testing

/// Children start through `posix_spawn` (``ChildProcess``, ``ProgramRun``,
/// ``AppProcess``), never through Foundation's `Process`, whose launch on
/// Linux can crash this process (see ``ChildProcess``).
@Suite struct ChildProcessTests {
    @Test func streamsStatusAndEnvironmentAreTheChilds() throws {
        let child = try ChildProcess(
            "/bin/sh", ["-c", "read line; echo \"got $line $FOLIO_CHILD_TEST\"; echo oops >&2; exit 3"],
            environment: ["FOLIO_CHILD_TEST": "here"], input: .pipe, output: .pipe, errors: .pipe)
        try child.input?.write(contentsOf: Data("hello\n".utf8))
        try child.input?.close()
        #expect(String(decoding: child.output?.readDataToEndOfFile() ?? Data(), as: UTF8.self) == "got hello here\n")
        #expect(String(decoding: child.errors?.readDataToEndOfFile() ?? Data(), as: UTF8.self) == "oops\n")
        #expect(child.wait() == 3)
        #expect(!child.isRunning)
    }

    @Test func aSignalEndsItAndIsItsStatus() throws {
        let sleeper = try ChildProcess("/bin/sleep", ["600"])
        #expect(sleeper.isRunning)
        sleeper.send(SIGTERM)
        #expect(sleeper.wait() == 128 + SIGTERM)
        sleeper.send(SIGKILL)  // reaped: nothing is sent to an ID another process may have now
        #expect(sleeper.wait() == 128 + SIGTERM)
    }

    @Test func aChildHoldsNoDescriptorOfOursButItsStreams() throws {
        let open = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/stat"))
        defer { try? open.close() }
        let child = try ChildProcess("/bin/ls", ["/proc/self/fd"], output: .pipe, errors: .toOutput)
        let listed = String(decoding: child.output?.readDataToEndOfFile() ?? Data(), as: UTF8.self).split(separator: "\n")
        #expect(child.wait() == 0)
        // 0, 1, 2, and the directory `ls` itself reads.
        #expect(listed.count <= 4, "\(listed)")
    }

    @Test func noChildStartsThroughFoundation() throws {
        let root = ReleaseBuild.packageRoot
        // Foundation's `Process` made, or given a program to run.
        let forbidden = try NSRegularExpression(pattern: #"(?<![A-Za-z0-9_])Process\(\)|\.executableURL\b"#)
        var found: [String] = []
        for folder in ["Sources", "Tests"] {
            let base = root.appendingPathComponent(folder)
            for case let file as URL in FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) ?? .init()
            where file.pathExtension == "swift" && file.lastPathComponent != "ChildProcessTests.swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                if forbidden.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil { found.append(file.path) }
            }
        }
        #expect(found.isEmpty, "start children with ChildProcess: \(found)")
    }
}
