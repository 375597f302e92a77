extension ResultsEngine {
    /// How many shares a batch's sections are cut into, which the threads
    /// take as they come free (see ``Lanes``).
    package enum EditLanes: Sendable {
        /// A few per core (up to four cores) for a big batch that touches several sections, else one.
        case automatic
        /// Exactly this many (at most one a section), whatever the batch: for tests.
        case exactly(Int)

        func count(changes: Int, sections: Int) -> Int {
            switch self {
            case .automatic: min(Lanes.count(for: changes), sections)
            case .exactly(let lanes): min(max(1, lanes), sections)
            }
        }
    }

    /// Performs each section's edit. Sections share nothing but the batch's
    /// row buffers, where each writes only its own changes' entries, so a big
    /// batch's sections are edited on several threads at once, shared out by
    /// their weight, the heaviest first, each to the least loaded share.
    func perform(_ edits: [SectionEdit], rows: UnsafeBatchRows, changes: Int) {
        let lanes = editLanes.count(changes: changes, sections: edits.count)
        guard lanes > 1 else {
            for edit in edits { perform(edit, rows: rows) }
            return
        }
        var shares = [[SectionEdit]](repeating: [], count: lanes)
        var loads = [Int](repeating: 0, count: lanes)
        for edit in edits.sorted(by: { $0.weight > $1.weight }) {
            let lane = loads.indices.min { loads[$0] < loads[$1] }!
            shares[lane].append(edit)
            loads[lane] += edit.weight
        }
        let work = LaneWork(engine: self, shares: shares, rows: rows)
        Lanes.run(lanes) { lane in work.run(lane) }
    }

    /// One batch's sections, shared among threads.
    // @unchecked: each lane edits only its own sections (their trees and edit
    // records) and writes only its changes' entries of the row buffers; the
    // engine's other state is only read until every lane is done.
    private struct LaneWork: @unchecked Sendable {
        let engine: ResultsEngine
        let shares: [[SectionEdit]]
        let rows: UnsafeBatchRows

        func run(_ lane: Int) {
            for edit in shares[lane] { engine.perform(edit, rows: rows) }
        }
    }
}
