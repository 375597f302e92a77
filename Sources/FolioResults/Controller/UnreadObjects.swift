/// One object of a batch: its engine ID and whether the object itself
/// changed (false when only a related object that a key reads through did).
typealias BatchCandidate = (id: Int64, changed: Bool)

/// Objects of batches whose keys the store could not read (a server away,
/// a file another connection holds locked), held to be read again with the
/// next batch, or on a retry, until the store answers: dropped, the results
/// would differ from the store and the context for good.
///
/// ```swift
/// var unread = UnreadObjects()
/// if unread.hold(candidates) { scheduleRetry() }   // a retry calls retryCame()
/// touched += unread.take()                          // read with the next batch
/// ```
struct UnreadObjects {
    /// The objects held, sorted by ID, one entry each (changed if any entry said so).
    private(set) var candidates: [BatchCandidate] = []
    private var retryScheduled = false

    var isEmpty: Bool { candidates.isEmpty }

    /// Holds `more` too; true when a retry should now be scheduled: objects
    /// are held and no retry is.
    mutating func hold(_ more: [BatchCandidate]) -> Bool {
        candidates = mergeCandidates(candidates + more)
        guard !candidates.isEmpty, !retryScheduled else { return false }
        retryScheduled = true
        return true
    }

    /// A scheduled retry has come: true when objects are still held, for it to read.
    mutating func retryCame() -> Bool {
        retryScheduled = false
        return !candidates.isEmpty
    }

    /// The objects held, to read with a batch; none is held after.
    mutating func take() -> [BatchCandidate] {
        defer { candidates = [] }
        return candidates
    }

    /// Lets every object go (a fetch afresh reads them all); a retry scheduled still comes.
    mutating func removeAll() { candidates = [] }
}

/// `touched` sorted by ID, one entry per object, changed if any entry says so.
/// - Complexity: O(k) for k entries (a radix sort).
func mergeCandidates(_ touched: [BatchCandidate]) -> [BatchCandidate] {
    // Packed as ID and flag in one integer (engine IDs are below 2^63), so
    // that the sort compares integers rather than calling a closure on tuples.
    var packed = touched.map { UInt64($0.id) << 1 | ($0.changed ? 1 : 0) }
    radixSort(&packed)
    var merged: [BatchCandidate] = []
    merged.reserveCapacity(packed.count)
    for item in packed {
        let id = Int64(item >> 1), changed = item & 1 == 1
        if let last = merged.last, last.id == id {
            if changed { merged[merged.count - 1].changed = true }
        } else {
            merged.append((id, changed))
        }
    }
    return merged
}
