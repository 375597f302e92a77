import FolioStore

/// One batch's changed objects looked up and read from memory into engine
/// rows, the candidates split into runs, one a lane (see ``Lanes``): a big
/// save's objects are each a cache miss or two, and every core waits on
/// its own at once.
///
/// Each lane writes from its run's start in shared buffers; the results are
/// then moved (not copied) into arrays in candidate order.
///
/// Unsafe: raw buffers, which an array's uniqueness check would make a race
/// to write from several threads. Debug builds check that each lane stays
/// in its run; the results are taken once, after every lane is done.
// @unchecked: the lanes only read the registered objects (a copy of the
// tables) and only loaded ones (`row` meets no fault, so no context is
// touched), while the context's thread waits in `Lanes.run` until every
// lane is done; each lane writes only its own run of the buffers and its
// own entry of the counts.
final class UnsafeMemoryRead: @unchecked Sendable {
    typealias Candidate = BatchCandidate
    typealias Change = ResultsRowChange<Int64, RowKey, SectionKey>

    let keys: ObjectKeys
    let candidates: [Candidate]
    /// The candidates this context changed, sorted, and the objects registered for their entity.
    let changed: [Int64]
    let registered: RegisteredRows
    let deleted: [Int64]
    let lanes: Int
    private let changeBuffer: UnsafeMutablePointer<Change>
    private let objectBuffer: UnsafeMutablePointer<ManagedObject>
    private let idBuffer: UnsafeMutablePointer<Int64>
    private let presentBuffer: UnsafeMutableBufferPointer<Bool>
    /// Per lane: how many rows it wrote, and the candidates left for the store.
    private let counts: UnsafeMutableBufferPointer<Int>
    private let rests: UnsafeMutableBufferPointer<[Int64]>
    private var taken = false

    init(
        keys: ObjectKeys, candidates: [Candidate], changed: [Int64], deleted: [Int64],
        registered: RegisteredRows, lanes: Int
    ) {
        (self.keys, self.candidates, self.changed, self.deleted, self.registered) = (keys, candidates, changed, deleted, registered)
        self.lanes = max(1, min(lanes, candidates.count))
        changeBuffer = .allocate(capacity: candidates.count)
        objectBuffer = .allocate(capacity: candidates.count)
        idBuffer = .allocate(capacity: candidates.count)
        presentBuffer = .allocate(capacity: candidates.count)
        presentBuffer.initialize(repeating: false)
        counts = .allocate(capacity: self.lanes)
        counts.initialize(repeating: 0)
        rests = .allocate(capacity: self.lanes)
        rests.initialize(repeating: [])
    }

    deinit {
        // Unless `take` moved them out, the rows and objects read are still here.
        if !taken {
            for lane in 0..<lanes {
                let start = runStart(lane)
                (changeBuffer + start).deinitialize(count: counts[lane])
                (objectBuffer + start).deinitialize(count: counts[lane])
            }
        }
        changeBuffer.deallocate()
        objectBuffer.deallocate()
        idBuffer.deallocate()
        presentBuffer.deallocate()
        counts.deallocate()
        rests.deinitialize().deallocate()
    }

    private func runStart(_ lane: Int) -> Int { candidates.count * lane / lanes }

    /// Reads lane `lane`'s run of candidates.
    func run(lane: Int) {
        assert((0..<lanes).contains(lane) && !taken, "UnsafeMemoryRead: lane \(lane) of \(lanes)")
        let start = runStart(lane), end = runStart(lane + 1)
        guard start < end else { return }
        var c = lowerBound(of: candidates[start].id, in: changed) { $0 }
        var d = lowerBound(of: candidates[start].id, in: deleted) { $0 }
        var written = 0
        var rest: [Int64] = []
        for index in start..<end {
            let candidate = candidates[index], id = candidate.id
            while d < deleted.count && deleted[d] < id { d += 1 }
            if d < deleted.count && deleted[d] == id { continue }
            while c < changed.count && changed[c] < id { c += 1 }
            // Not changed here, not registered, or not loaded: the store says.
            guard c < changed.count && changed[c] == id,
                let object = registered.object(anyRowID: AnyFetchedResultsController.storeRowID(id))?.takeUnretainedValue(), !object.isFault
            else {
                rest.append(id)
                continue
            }
            guard !object.isDeleted else { continue }
            assert(start + written < end, "UnsafeMemoryRead: lane \(lane) wrote past its run")
            (changeBuffer + start + written).initialize(
                to: Change(id: id, row: keys.row(id: id, object: object), objectChanged: candidate.changed))
            (objectBuffer + start + written).initialize(to: object)
            (idBuffer + start + written).initialize(to: id)
            presentBuffer[index] = true
            written += 1
        }
        counts[lane] = written
        rests[lane] = rest
    }

    /// What the lanes read, once they are done: the rows in candidate order
    /// (in an array with room for `capacity`), their objects and IDs at the
    /// same indexes, for each candidate whether a row was read, and the
    /// candidates neither read nor deleted here, which the store must read.
    func take(capacity: Int) -> (rows: [Change], objects: [ManagedObject], ids: [Int64], present: [Bool], rest: [Int64]) {
        precondition(!taken, "UnsafeMemoryRead: taken twice")
        taken = true
        return (
            gather(changeBuffer, capacity: capacity), gather(objectBuffer), gather(idBuffer), Array(presentBuffer),
            rests.count == 1 ? rests[0] : Array(rests.joined())
        )
    }

    private func gather<T>(_ buffer: UnsafeMutablePointer<T>, capacity: Int = 0) -> [T] {
        let total = counts.reduce(0, +)
        return [T](unsafeUninitializedCapacity: max(capacity, total)) { array, count in
            for lane in 0..<lanes where counts[lane] > 0 {
                assert(counts[lane] <= runStart(lane + 1) - runStart(lane), "UnsafeMemoryRead: lane \(lane) wrote past its run")
                (array.baseAddress! + count).moveInitialize(from: buffer + runStart(lane), count: counts[lane])
                count += counts[lane]
            }
        }
    }
}
