extension SearchScan.Outcome {
    /// The rows that stay, as ``ResultsEngine/load(sorted:)`` takes them;
    /// a section that keeps every row is shared, not copied. Many rows are
    /// copied on several threads: a big section in parts, the others a
    /// share of sections each.
    ///
    /// ```swift
    /// engine.load(sorted: outcome.kept(session.sections, starts: session.starts))
    /// ```
    /// - Complexity: O(m) for the m rows that stay.
    func kept(_ sections: SearchScan.Sections, starts: [Int]) -> SearchScan.Sections {
        guard let after else { return sections }
        // Section s's members are after[bounds[s]..<bounds[s + 1]].
        let bounds = sections.indices.map { Self.firstIndex(in: after, atLeast: starts[$0]) } + [after.count]
        // Copying a row costs little: only many rows are worth other threads.
        let shares = Lanes.count(for: after.count / 32)
        let big = max(Lanes.bigBatch * 8, after.count / max(shares, 1))
        var result = sections
        var small: [Int] = []
        after.withUnsafeBufferPointer { after in
            result.withUnsafeMutableBufferPointer { result in
                let gather = Gather(sections: result, after: after, starts: starts, bounds: bounds)
                for s in sections.indices where bounds[s + 1] - bounds[s] != sections[s].entries.count {
                    if bounds[s + 1] - bounds[s] >= big { gather.section(s, shares: shares) } else { small.append(s) }
                }
                guard !small.isEmpty else { return }
                let lanes = min(shares, small.count)
                // Each share copies its own sections' rows and replaces only their elements.
                Lanes.run(lanes) { [small] lane in
                    for k in small.count * lane / lanes..<small.count * (lane + 1) / lanes { gather.section(small[k], shares: 1) }
                }
            }
        }
        return result
    }

    /// The first index of `sorted` whose place is `place` or more.
    private static func firstIndex(in sorted: [Int32], atLeast place: Int) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if Int(sorted[middle]) < place { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Copies the members' rows of one section over its element of `sections`.
    private struct Gather: @unchecked Sendable {  // each thread writes only the sections (or parts of one) it is given
        let sections:
            UnsafeMutableBufferPointer<(section: SectionKey, entries: ContiguousArray<SearchScan.Entry>, leads: ContiguousArray<UInt64>)>
        let after: UnsafeBufferPointer<Int32>
        let starts: [Int]
        let bounds: [Int]

        func section(_ s: Int, shares: Int) {
            let (key, entries, leads) = sections[s]
            let first = bounds[s], count = bounds[s + 1] - bounds[s], start = starts[s]
            let keptEntries = ContiguousArray<SearchScan.Entry>(unsafeUninitializedCapacity: count) { buffer, initialized in
                let out = Out(base: buffer.baseAddress)
                entries.withUnsafeBufferPointer { entries in
                    let source = In(base: entries.baseAddress)
                    Lanes.run(shares) { share in
                        for k in count * share / shares..<count * (share + 1) / shares {
                            (out.base! + k).initialize(to: source.base![Int(after[first + k]) - start])
                        }
                    }
                }
                initialized = count
            }
            let keptLeads = ContiguousArray<UInt64>(unsafeUninitializedCapacity: count) { buffer, initialized in
                leads.withUnsafeBufferPointer { leads in
                    for k in 0..<count { buffer[k] = leads[Int(after[first + k]) - start] }
                }
                initialized = count
            }
            sections[s] = (key, keptEntries, keptLeads)
        }
    }

    private struct Out: @unchecked Sendable {  // parts of one buffer, each share initializing its own
        let base: UnsafeMutablePointer<SearchScan.Entry>?
    }

    private struct In: @unchecked Sendable {  // a buffer only read while the shares run
        let base: UnsafePointer<SearchScan.Entry>?
    }
}
