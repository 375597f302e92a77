import FolioStore
import Foundation
import Synchronization
import Testing

@testable import FolioPostgres

/// A handler kept under a lock is called as often as a long-running app
/// calls it (a replica's save wakes its sync; a server notice goes to the
/// program's route) without each call costing more than the last: called
/// many times on a thread with a small stack, a handler that gained a layer
/// a call would overflow it.
@Suite struct StoredHandlerTests {
    static let calls = 20_000

    final class Counter: Sendable {
        let value = Atomic<Int>(0)
        func add() { value.add(1, ordering: .relaxed) }
        var count: Int { value.load(ordering: .relaxed) }
    }

    /// Runs `body` on a thread with a 256 KB stack and waits for it.
    func onSmallStack(_ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                body()
                done.resume()
            }
            thread.stackSize = 256 * 1024
            thread.start()
        }
    }

    @Test func aReplicaSaveWakesItsSyncAtTheSameCostEveryTime() async {
        let journal = ReplicaJournal(identity: ReplicaIdentity(server: "s", number: 1, author: "a", schemaVersion: 1))
        let heard = Counter()
        journal.onCommit { heard.add() }
        await onSmallStack {
            for _ in 0..<Self.calls { journal.didCommit() }
        }
        #expect(heard.count == Self.calls)
    }

    @Test func everyServerNoticeReachesTheRouteAtTheSameCost() async {
        let marker = "notice-\(UUID().uuidString)"
        let heard = Counter()
        PostgresNotices.route { line in if line == marker { heard.add() } }
        defer { PostgresNotices.route(nil) }
        await onSmallStack {
            for _ in 0..<Self.calls { PostgresNotices.deliver(marker) }
        }
        #expect(heard.count == Self.calls)
    }
}
