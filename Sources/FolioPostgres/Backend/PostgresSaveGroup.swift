import Dispatch
import FolioLocking

/// One save's writes, ready to go to the server inside a group's transaction.
struct GroupedSave: Sendable {
    /// Its writes, in order, without BEGIN, lock, history or COMMIT.
    let statements: [PGStatement]
    /// Its history row's text; empty for a save that changed nothing.
    let history: String
    let author: String
}

/// Saves of one namespace that this process's contexts make at the same
/// time reach the server as one transaction: one BEGIN, write lock,
/// constraint check, history insert and COMMIT for all of them, where
/// each alone costs the server about as much again as its own writes
/// (see DECISIONS.md). A save arriving while ``leaderLimit`` groups are on
/// the server waits; when one returns, the oldest waiting save leads the
/// next group, on its own thread and connection, with every save waiting
/// by then. A save that finds no group in flight leads a group of one at
/// once, so a lone writer waits for nobody, and one that has waited
/// ``patience`` leads its own, so a group held by another client's row
/// lock holds up no other save.
///
/// A group's transaction either commits every save or none. When one
/// fails, the caller makes its save again alone (see
/// ``PostgresBackend/commit(_:author:)``), which names the save at fault.
///
///     let outcome = PostgresSaveGroup.shared(server, namespace: "planets").commit(save) { saves in
///         try backend.commitGroup(saves)
///     }
final class PostgresSaveGroup: Sendable {
    /// Groups of this process on the server at once.
    static let leaderLimit = 1
    /// How long a save waits for the groups in flight before it leads one of its own (ns).
    static let patience: UInt64 = 5_000_000
    /// The most saves in one group: a bound on one transaction's size and its members' wait.
    static let sizeLimit = 32

    /// What became of a save: its group's result, and how many saves the group held.
    struct Outcome: Sendable {
        let result: Result<Void, any Error>
        let groupSize: Int
    }

    /// A save waiting for its group.
    private final class Member: @unchecked Sendable {  // `outcome` changes only under the group's lock, before `done` is signalled
        let save: GroupedSave
        /// Nil when woken: this save leads the next group.
        var outcome: Outcome?
        let done = DispatchSemaphore(value: 0)
        init(_ save: GroupedSave) { self.save = save }
    }

    private struct State {
        var waiting: [Member] = []
        var leading = 0
        var patience = PostgresSaveGroup.patience
    }

    private let state = LockedValue(State())

    private init() {}

    private static let all = LockedValue<[String: PostgresSaveGroup]>([:])

    /// The process's group for `namespace` on `server`.
    static func shared(_ server: PostgresServer, namespace: String?) -> PostgresSaveGroup {
        let key = server.uri + "\u{0}" + (namespace ?? "")
        return all.withLock { all in
            if let group = all[key] { return group }
            let group = PostgresSaveGroup()
            all[key] = group
            return group
        }
    }

    /// Waits for `member`'s group, or for its turn to lead one. A member
    /// still waiting after ``patience`` leads a group of its own meanwhile:
    /// a group on the server may wait for a row another client holds, and
    /// saves of the namespace never wait for each other's rows.
    private func leadsAfterWaiting(_ member: Member) -> Bool {
        let patience = state.withLock { $0.patience }
        guard member.done.wait(timeout: .now() + .nanoseconds(Int(patience))) == .timedOut else { return false }
        let leads = state.withLock { s in
            guard let index = s.waiting.firstIndex(where: { $0 === member }) else { return false }
            s.waiting.remove(at: index)
            s.leading += 1
            return true
        }
        // Taken into a group, or made the next leader, as the wait ended: the signal is on its way.
        if !leads { member.done.wait() }
        return leads
    }

    /// How many saves wait for a group now.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Sets how long a save waits before it leads a group of its own (ns),
    /// for tests that gather a group behind a lock they hold.
    func setPatience(_ nanoseconds: UInt64) { state.withLock { $0.patience = nanoseconds } }

    /// Commits `save` with whichever saves wait meanwhile. When this save
    /// leads, `send` writes the group in one transaction on the calling
    /// thread; otherwise the call waits for the save's leader.
    func commit(_ save: GroupedSave, send: ([GroupedSave]) throws -> Void) -> Outcome {
        let member = Member(save)
        let leads = state.withLock { s in
            guard s.leading < Self.leaderLimit else {
                s.waiting.append(member)
                return false
            }
            s.leading += 1
            return true
        }
        if !leads, !leadsAfterWaiting(member) {
            if let outcome = state.withLock({ _ in member.outcome }) { return outcome }
        }
        let members = state.withLock { s in
            let taken = s.waiting.prefix(Self.sizeLimit - 1)
            s.waiting.removeFirst(taken.count)
            return [member] + taken
        }
        let outcome = Outcome(result: Result { try send(members.map(\.save)) }, groupSize: members.count)
        let next = state.withLock { s -> Member? in
            for m in members.dropFirst() { m.outcome = outcome }
            guard !s.waiting.isEmpty else {
                s.leading -= 1
                return nil
            }
            return s.waiting.removeFirst()
        }
        for m in members.dropFirst() { m.done.signal() }
        next?.done.signal()
        return outcome
    }
}
