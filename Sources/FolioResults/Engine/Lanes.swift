import Dispatch
import Foundation

/// Work shared among threads: a big batch's independent parts run on every
/// core (up to four) while the caller waits; a small batch runs on the
/// caller's thread, since handing work to another thread costs tens of
/// microseconds.
enum Lanes {
    /// The fewest items of work worth sharing.
    static var bigBatch: Int { 2_048 }
    static var cores: Int { min(4, ProcessInfo.processInfo.activeProcessorCount) }

    /// How many lanes a batch of `items` items gets.
    static func count(for items: Int) -> Int { items < bigBatch ? 1 : cores }

    /// Runs `body` once for each lane, `0..<lanes`, at once, and returns when all are done.
    static func run(_ lanes: Int, _ body: @Sendable (Int) -> Void) {
        if lanes <= 1 { body(0) } else { DispatchQueue.concurrentPerform(iterations: lanes, execute: body) }
    }
}
