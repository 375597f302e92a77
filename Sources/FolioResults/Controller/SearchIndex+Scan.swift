import FolioStore

extension SearchIndex {
    /// One keystroke's test over the index's arrays, shared read-only by
    /// the threads of ``SearchIndex/matching(_:among:)``.
    struct Scan: Sendable {
        let bytes: ContiguousArray<UInt8>
        let ends: ContiguousArray<UInt32>
        let needle: [UInt8]
        let match: StringMatch
        /// A `contains` test with a needle of one byte or more.
        let contains: Bool
        /// The rows to test, by place; every row when nil.
        let candidates: [Int32]?

        /// The `i`th candidate row.
        @inline(__always) func row(_ i: Int) -> Int { candidates.map { Int($0[i]) } ?? i }
        @inline(__always) func start(_ row: Int) -> Int { row == 0 ? 0 : Int(ends[row - 1]) }

        /// The candidates `range` that match, each tested on its own.
        func rowByRow(_ range: Range<Int>) -> [Int32] {
            var found: [Int32] = []
            for i in range {
                let row = row(i)
                if contains ? holdsNeedle(start(row), Int(ends[row])) : matches(row) { found.append(Int32(row)) }
            }
            return found
        }

        /// The candidates `range` that hold the needle, found by searching
        /// their bytes as one run for the needle's first byte, from one
        /// candidate's start to the next match or the end.
        func stream(_ range: Range<Int>) -> [Int32] {
            var found: [Int32] = []
            guard !range.isEmpty, !bytes.isEmpty else { return found }
            let n = needle.count, first = needle[0]
            let limit = Int(ends[row(range.upperBound - 1)])
            var i = range.lowerBound
            var p = start(row(i))
            while p < limit {
                guard let h = next(first, from: p, before: limit) else { break }
                // A match ends within its row, so none is left past the last row's end.
                if h + n > limit { break }
                if !same(h) {
                    p = h + 1
                    continue
                }
                // Candidates that end at or before the match hold none.
                while Int(ends[row(i)]) <= h { i += 1 }
                if start(row(i)) <= h {
                    found.append(Int32(row(i)))
                    i += 1
                }
                // Or the match is in a row that is not a candidate: go on from the next candidate.
                guard i < range.upperBound else { break }
                p = start(row(i))
            }
            return found
        }

        /// The first place of `byte` in `from..<before`, found eight bytes
        /// at a time: a word's bytes equal to `byte` become zero, and the
        /// lowest zero byte sets the lowest bit of the test (a borrow only
        /// sets bits above a zero byte). Bytes are read little-endian, as on
        /// every platform Swift builds this for; a word only where eight
        /// bytes remain before `limit`, within the array.
        @inline(__always) func next(_ byte: UInt8, from start: Int, before limit: Int) -> Int? {
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            let pattern = UInt64(byte) &* ones
            var p = start
            let found: Int? = bytes.withUnsafeBytes { base in
                while p + 8 <= limit {
                    let word = base.loadUnaligned(fromByteOffset: p, as: UInt64.self).littleEndian ^ pattern
                    let zeros = (word &- ones) & ~word & highs
                    if zeros != 0 { return p + zeros.trailingZeroBitCount / 8 }
                    p += 8
                }
                return nil
            }
            if let found { return found }
            while p < limit {
                if bytes[p] == byte { return p }
                p += 1
            }
            return nil
        }

        /// Whether the bytes `start..<end` hold the needle (not empty).
        @inline(__always) func holdsNeedle(_ start: Int, _ end: Int) -> Bool {
            let first = needle[0]
            var i = start
            let last = end - needle.count
            while i <= last {
                if bytes[i] == first && same(i) { return true }
                i += 1
            }
            return false
        }

        /// Whether a text of the row meets the match.
        @inline(__always) func matches(_ row: Int) -> Bool {
            var p = start(row)
            let end = Int(ends[row])
            while p < end {
                let marker = bytes[p]
                p += 1
                var q = p
                while q < end && bytes[q] < SearchIndex.nilMarker { q += 1 }
                if marker == SearchIndex.textMarker && holds(p, q) { return true }
                p = q
            }
            return false
        }

        /// Whether the text in `start..<end` meets the match.
        @inline(__always) func holds(_ start: Int, _ end: Int) -> Bool {
            let n = needle.count, length = end - start
            guard length >= n else { return false }
            switch match {
            case .equals: return length == n && same(start)
            case .beginsWith: return same(start)
            case .endsWith: return same(end - n)
            case .contains: return n == 0 || holdsNeedle(start, end)
            }
        }

        @inline(__always) func same(_ at: Int) -> Bool {
            for j in 0..<needle.count where bytes[at + j] != needle[j] { return false }
            return true
        }
    }
}
