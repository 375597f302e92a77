import FolioStore

extension SearchIndex {
    /// The rows among `candidates` (rows by place, in order; every row when
    /// nil) whose texts meet `test`, whose options must be the index's, in
    /// order. Shares of the candidates are tested on several threads and
    /// their answers joined in order, so the answer does not depend on them.
    ///
    /// ```swift
    /// let shown = index.matching(StringTextTest(.contains("li"), options: [.caseInsensitive]), among: [0, 2, 5])
    /// ```
    /// - Complexity: O(b) for the b bytes of the candidates' texts.
    func matching(_ test: StringTextTest, among candidates: [Int32]?) -> [Int32] {
        let needle = test.foldedNeedleBytes
        let total = candidates?.count ?? count
        guard total > 0 else { return [] }
        // A needle never spans two attributes or rows (each text follows a
        // marker, and no needle holds one), so `contains` can search each
        // row's bytes whole, and a run of rows at once when most are candidates.
        var contains = false
        if case .contains = test.stringMatch { contains = !needle.isEmpty }
        let streams = contains && total * 4 >= count
        // Only a long scan is shared: on a busy machine, waiting for another thread can cost more than a short one.
        let shares = Lanes.count(for: total / 128)
        let scan = Scan(bytes: bytes, ends: ends, needle: needle, match: test.stringMatch, contains: contains, candidates: candidates)
        // Each share answers its own part, joined in order.
        let parts = Lanes.collect(shares) { share in
            let range = total * share / shares..<total * (share + 1) / shares
            return streams ? scan.stream(range) : scan.rowByRow(range)
        }
        guard parts.count > 1 else { return parts[0] }
        var joined: [Int32] = []
        joined.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        for part in parts { joined.append(contentsOf: part) }
        return joined
    }
}
