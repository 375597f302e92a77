import FolioLocking

/// The change sets handed to a context that it has not merged yet, in
/// order. A context whose thread is busy (a long turn of the main thread,
/// a burst of saves elsewhere) takes all that waited at its next turn and
/// merges each run of one origin as one change set: it catches up in one
/// step, however many saves it missed, where merging them one by one would
/// keep it behind for as long as they come faster than it merges.
///
///     if waiting.add(changes, heard) {
///         queue.async { for (changes, heard) in waiting.takeAll() { context.merge(changes, heard: heard) } }
///     }
package final class WaitingMerges: Sendable {
    private let state = LockedValue<[(changes: ChangeSet, heard: HeardRows?)]>([])

    package init() {}

    /// How many wait.
    var count: Int { state.withLock { $0.count } }

    /// Adds a change set; true when none waited before it (the caller schedules a turn that takes them).
    package func add(_ changes: ChangeSet, _ heard: HeardRows?) -> Bool {
        state.withLock { waiting in
            waiting.append((changes, heard))
            return waiting.count == 1
        }
    }

    /// Takes every change set that waits, each run of one origin folded
    /// into one, with the rows heard for it (a later set's rows replace an
    /// earlier one's; an object a set changed without rows is read from the
    /// store).
    ///
    /// Each set is folded into the run in place, through the list's
    /// subscript: a copy of the run taken out, changed and stored back
    /// would share its storage while changed, so each set folded in would
    /// copy the whole run again (a context thousands of saves behind would
    /// spend their square catching up).
    package func takeAll() -> [(changes: ChangeSet, heard: HeardRows?)] {
        let taken = state.withLock { waiting in
            defer { waiting = [] }
            return waiting
        }
        var merges: [(changes: ChangeSet, heard: HeardRows?)] = []
        for next in taken {
            guard let run = merges.indices.last, merges[run].changes.origin == next.changes.origin else {
                merges.append(next)
                continue
            }
            merges[run].changes.merge(next.changes)
            if next.heard != nil && merges[run].heard == nil { merges[run].heard = HeardRows() }
            merges[run].heard?.note(next.changes, values: next.heard)
        }
        return merges
    }
}
