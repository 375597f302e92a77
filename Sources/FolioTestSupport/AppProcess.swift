import Foundation

/// Runs a real executable to completion and keeps its exit status and output.
///
/// ```swift
/// let result = try AppProcess.run(AppProcess.folioBinary(), ["planets", "list", "--store", path])
/// #expect(result.status == 0)
/// print(result.stdout)
/// ```
public enum AppProcess {
    /// What a finished process left.
    public struct Result: Sendable, CustomStringConvertible {
        /// The exit status (128 + signal when killed by one).
        public let status: Int32
        /// Everything written to standard output.
        public let stdout: String
        /// Everything written to standard error.
        public let stderr: String

        /// Status and both streams, for failure messages.
        public var description: String {
            "status \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
        }
    }

    /// Why a process could not be run.
    public enum Failure: Error, CustomStringConvertible {
        /// The executable is not where it was looked for.
        case binaryMissing(path: String)
        /// The executable is older than a source file: it would test old code.
        case binaryStale(path: String, source: String)
        /// The program could not be started, and why.
        case spawnFailed(path: String, reason: String)

        /// A message naming the path.
        public var description: String {
            switch self {
            case .binaryMissing(let path):
                "no executable at \(path): run `scripts/setup` (it builds `swift build -c release --product folio`)"
            case .binaryStale(let path, let source):
                "\(path) is older than \(source): run `scripts/setup` (it builds `swift build -c release --product folio`)"
            case .spawnFailed(_, let reason): reason
            }
        }
    }

    /// Runs `executable` with `arguments`, stdin from /dev/null, in `environment`
    /// (the current one when nil), and waits for it.
    ///
    /// The child starts with no signals blocked and default handlers: test
    /// runners block signals on their threads, and a child (a tmux server, the
    /// app) inheriting that mask would never hear SIGCHLD, SIGTERM or SIGWINCH.
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws -> Result {
        try BlockingWork.refuseMainActor("running \(executable.lastPathComponent) \(arguments.first ?? "")")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outPath = folder.appendingPathComponent("out").path, errPath = folder.appendingPathComponent("err").path
        let child: ChildProcess
        do {
            child = try ChildProcess(executable.path, arguments, environment: environment, output: .file(outPath), errors: .file(errPath))
        } catch let failure as ChildProcess.Failure {
            throw Failure.spawnFailed(path: executable.path, reason: failure.description)
        }
        let status = child.wait()
        return Result(
            status: status,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        )
    }

    /// The release-built `folio` (what a user installs), which every test
    /// that drives the program runs: `.build/release/folio`, built by
    /// `scripts/setup` (`swift test` builds only debug products).
    /// `$FOLIO_BINARY` overrides. A binary older than any source it is built
    /// from is refused rather than tested.
    ///
    /// Throws ``Failure/binaryMissing(path:)`` or ``Failure/binaryStale(path:source:)``.
    public static func folioBinary() throws -> URL {
        if let override = ProcessInfo.processInfo.environment["FOLIO_BINARY"] {
            return URL(fileURLWithPath: override)
        }
        let root = ReleaseBuild.packageRoot
        let binary = root.appendingPathComponent(".build/release/folio")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw Failure.binaryMissing(path: binary.path)
        }
        if let newer = ReleaseBuild.newerSource(than: binary, in: folioSources(root)) {
            throw Failure.binaryStale(path: binary.path, source: newer)
        }
        return binary
    }

    /// Every target `folio` may be built from: all of Sources but the other
    /// executables and the test support, and the manifest.
    private static func folioSources(_ root: URL) -> [URL] {
        let sources = root.appendingPathComponent("Sources")
        let others: Set<String> = ["folio-bench", "folio-terminal-probe", "folio-store-worker", "FolioTestSupport"]
        let targets = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
        return targets.filter { !others.contains($0) }.map { sources.appendingPathComponent($0) }
            + [root.appendingPathComponent("Package.swift")]
    }

    /// Whether end-to-end tests can run: the release binary is built and
    /// current, or this is CI (where `scripts/setup` built it, so a missing or
    /// stale binary must fail loudly instead of skipping).
    public static var folioBinaryIsReady: Bool {
        (try? folioBinary()) != nil || ReleaseBuild.isCI
    }
}
