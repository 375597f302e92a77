import Dispatch
import FolioLocking
import Foundation

/// Work shared among threads: a big batch's independent parts are cut into
/// a few shares per core (up to four cores), which the caller's thread and
/// the others take as each comes free; a small batch runs on the caller's
/// thread, since handing work to another thread costs tens of microseconds.
///
/// More shares than threads keep a busy machine from stalling the caller:
/// a thread that the system holds back leaves the shares it has not begun
/// to the others, and the caller waits at most for one share in progress.
enum Lanes {
    /// The fewest items of work worth sharing.
    static var bigBatch: Int { 2_048 }
    static var cores: Int { min(4, ProcessInfo.processInfo.activeProcessorCount) }
    /// Shares a core: enough that one held-back thread costs little, few enough that each stays worth handing over.
    static var sharesPerCore: Int { 4 }

    /// How many shares a batch of `items` items is cut into.
    static func count(for items: Int) -> Int { items < bigBatch || cores < 2 ? 1 : cores * sharesPerCore }

    /// Runs `body` once for each share, `0..<shares`, on as many threads as
    /// are free, and returns when all are done.
    static func run(_ shares: Int, _ body: @Sendable (Int) -> Void) {
        if shares <= 1 { body(0) } else { DispatchQueue.concurrentPerform(iterations: shares, execute: body) }
    }

    /// Runs `body` once for each share, as ``run(_:_:)`` does, and returns
    /// their answers in share order.
    static func collect<T: Sendable>(_ shares: Int, _ body: @Sendable (Int) -> T) -> [T] {
        if shares <= 1 { return [body(0)] }
        let answers = LockedValue<[T?]>(Array(repeating: nil, count: shares))
        run(shares) { share in
            let answer = body(share)
            answers.withLock { $0[share] = answer }
        }
        return answers.withLock { $0.map { $0! } }
    }
}
