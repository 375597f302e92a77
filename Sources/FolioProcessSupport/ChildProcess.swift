import FolioLocking
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program started with `posix_spawn`, each standard stream from
/// `/dev/null`, a pipe to this process, a file, or this process's own.
///
/// Every child the tests and the benchmark start goes through here (or
/// ``ProgramRun``), never through Foundation's `Process`: its launch on
/// Linux copies each `/proc/self/fd` entry's whole 256-byte name field,
/// which can read past the end of the directory buffer into an unmapped
/// page and crash this process (fixed in swift-corelibs-foundation after
/// the Swift 6.3.1 toolchain this package builds with).
///
/// The child starts with no signals blocked and default handlers (a test
/// runner blocks signals on its threads, and a child inheriting that would
/// never hear SIGTERM or SIGCHLD), and with no descriptor of this process
/// but its three streams.
///
/// ```swift
/// let child = try ChildProcess("/usr/bin/sqlite3", [path, "PRAGMA integrity_check"], output: .pipe)
/// let text = String(decoding: child.output!.readDataToEndOfFile(), as: UTF8.self)
/// #expect(child.wait() == 0)
/// ```
public final class ChildProcess: Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// `/dev/null`.
        case null
        /// A pipe whose other end this process holds (``input``, ``output`` or ``errors``).
        case pipe
        /// A file, made or emptied.
        case file(String)
        /// This process's own.
        case inherit
        /// Standard error only: wherever standard output goes.
        case toOutput
    }

    /// Why a child could not be started.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The child's process ID.
    public let pid: pid_t
    /// The writing end of the child's standard input, when it is a pipe.
    public let input: FileHandle?
    /// The reading end of the child's standard output, when it is a pipe.
    public let output: FileHandle?
    /// The reading end of the child's standard error, when it is a pipe.
    public let errors: FileHandle?
    /// The wait status once reaped.
    private let reaped = LockedValue<Int32?>(nil)

    /// Starts `executable` with `arguments`, in `environment` (this process's when nil).
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        input: Stream = .null, output: Stream = .null, errors: Stream = .null
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The child's ends of its pipes, closed here once it has them.
        var childEnds: [Int32] = []
        defer { for fd in childEnds { close(fd) } }
        var ours: [Int32?] = [nil, nil, nil]
        for (fd, stream) in [(Int32(0), input), (1, output), (2, errors)] {
            switch stream {
            case .null:
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, fd, path, fd == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .inherit:
                continue
            case .toOutput:
                posix_spawn_file_actions_adddup2(&actions, 1, fd)
            case .pipe:
                var ends: [Int32] = [-1, -1]
                guard pipe(&ends) == 0 else {
                    for fd in ours.compactMap({ $0 }) { close(fd) }
                    throw Failure(description: "cannot make a pipe: \(String(cString: strerror(errno)))")
                }
                // Close-on-exec: no other child takes this one's pipe (its own gets it by dup2, which clears the flag).
                for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
                let (childEnd, ourEnd) = fd == 0 ? (ends[0], ends[1]) : (ends[1], ends[0])
                posix_spawn_file_actions_adddup2(&actions, childEnd, fd)
                childEnds.append(childEnd)
                ours[Int(fd)] = ourEnd
            }
        }
        _ = Self.closeFrom.map { $0(&actions, 3) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard code == 0 else {
            for fd in ours.compactMap({ $0 }) { close(fd) }
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(code)))")
        }
        self.pid = pid
        self.input = ours[0].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        self.output = ours[1].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        self.errors = ours[2].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
    }

    /// A child not waited for is killed and reaped, so none outlives its test as a zombie or a stray.
    deinit {
        guard reaped.withLock({ $0 }) == nil else { return }
        Glibc.kill(pid, SIGKILL)
        _ = wait()
    }

    /// Waits for the child to end; its exit status, or 128 + the signal that ended it.
    @discardableResult
    public func wait() -> Int32 {
        while true {
            if let status = reaped.withLock({ $0 }) { return Self.exitStatus(status) }
            var status: Int32 = 0
            let result = waitpid(pid, &status, 0)
            if result == pid {
                reaped.withLock { $0 = status }
            } else if result == -1 && errno == ECHILD {
                // Reaped by a concurrent `isRunning`, which records the status next.
                usleep(1000)
            }
        }
    }

    /// Whether the child still runs (one that has ended is reaped).
    public var isRunning: Bool {
        reaped.withLock { reaped in
            guard reaped == nil else { return false }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return true }
            reaped = status
            return false
        }
    }

    /// Sends `signal` to the child (nothing once it has been reaped, when its ID may be another's).
    public func send(_ signal: Int32) {
        reaped.withLock { reaped in
            if reaped == nil { _ = Glibc.kill(pid, signal) }
        }
    }

    private static func exitStatus(_ status: Int32) -> Int32 {
        status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np`, which Swift's Glibc module does not export.
    static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()
}
