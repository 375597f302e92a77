import Dispatch
import Foundation

/// Work that waits (a child process to its end, a server to start) and so
/// must not run on the main actor: every test of a run shares that one
/// serial executor, and a wait there stalls all of them. A full run once
/// held it for over ten minutes this way.
public enum BlockingWork {
    /// Runs `work` on a thread of its own and awaits its result, leaving the
    /// caller's actor free meanwhile.
    ///
    ///     let text = try await BlockingWork.run { try cluster.runSQL("SELECT 1") }
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result(catching: work)) }.start()
        }
    }

    /// Throws when called on the main actor's queue: `what` would wait there.
    public static func refuseMainActor(_ what: @autoclosure () -> String) throws {
        guard isOnMainQueue else { return }
        throw BlockingWorkError(message: "\(what()) would wait on the main actor, stalling every main-actor test: await its async form")
    }

    /// Whether the caller runs on the main queue, whichever thread drains it
    /// (after `dispatch_main` a worker thread does, so `Thread.isMainThread`
    /// cannot tell).
    static var isOnMainQueue: Bool {
        _ = markMainQueue
        return DispatchQueue.getSpecific(key: mainQueueKey) == true
    }

    private static let mainQueueKey = DispatchSpecificKey<Bool>()
    // Set once, before the first read.
    private static let markMainQueue: Void = DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
}

/// Blocking work was asked of the main actor.
public struct BlockingWorkError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
