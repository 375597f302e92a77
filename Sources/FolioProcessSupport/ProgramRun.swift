import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program to its end and returns what it printed (standard output
/// and standard error together), or throws with that text when it fails.
///
/// Spawned directly and awaited with `waitpid`, its output in a file, and
/// with no descriptor of this process but the standard three: a server
/// that `pg_ctl` starts keeps what it inherits, so an inherited pipe
/// (Foundation's `Process` watches one) would never close.
///
/// ```swift
/// let symbols = try ProgramRun.output("/usr/bin/nm", ["--dynamic", binary])
/// ```
public enum ProgramRun {
    /// A program that could not start, or ended with a failure.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `path` run with `arguments`; its output. Not on the main actor: it blocks until the program ends.
    @discardableResult
    public static func output(_ path: String, _ arguments: [String]) throws -> String {
        try BlockingWork.refuseMainActor("running \((path as NSString).lastPathComponent) \(arguments.first ?? "")")
        let output = try outputFile()
        defer { close(output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, output, 2)
        _ = ChildProcess.closeFrom.map { $0(&actions, 3) }
        var pid: pid_t = 0
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(description: "cannot run \(path): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        lseek(output, 0, SEEK_SET)
        let text = String(decoding: FileHandle(fileDescriptor: output).readDataToEndOfFile(), as: UTF8.self)
        let exited = status & 0x7f == 0, code = (status >> 8) & 0xff
        guard exited && code == 0 else {
            throw Failure(description: "\((path as NSString).lastPathComponent) \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }

    /// A file for a child's output that leaves nothing behind, even when this
    /// process ends while the child runs (as a stop at exit can): a memory
    /// file with no name, else a temporary file unlinked once open.
    private static func outputFile() throws -> Int32 {
        if let memfdCreate, case let file = memfdCreate("folio-program-output", 1 /* MFD_CLOEXEC */), file >= 0 { return file }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("folio-program-output-\(UUID().uuidString)").path
        let file = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw Failure(description: "cannot make \(path): \(String(cString: strerror(errno)))") }
        unlink(path)
        return file
    }

    /// glibc's `memfd_create`, which Swift's Glibc module does not export.
    private static let memfdCreate: (@convention(c) (UnsafePointer<CChar>, UInt32) -> Int32)? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "memfd_create") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafePointer<CChar>, UInt32) -> Int32).self)
    }()
}
