import FolioStore

/// The texts one string filter reads, folded as the store folds them, for
/// every row of a search session in its order: one run of bytes per row, so a
/// keystroke tests contiguous memory and folds nothing. Built when a search
/// starts; released with its session when the search ends.
///
/// Each attribute's text is stored as `0xFF` and its folded UTF-8 bytes, a
/// nil text as `0xFE` alone; neither byte occurs in UTF-8, so a needle never
/// matches across two attributes and a nil never matches.
///
/// ```swift
/// let index = SearchIndex(keyPaths: [\Animal.commonName], options: [.caseInsensitive], rows: 2) { row, add in
///     add(row == 0 ? "Lion" : nil)
/// }
/// var verdicts = [true, true]
/// index.narrow(&verdicts, to: StringTextTest(.contains("LI"), options: [.caseInsensitive]))   // [true, false]
/// ```
final class SearchIndex {
    /// The attributes, in the filter's order, and the folding: which filters this index answers.
    let keyPaths: [AnyKeyPath]
    let options: String.CompareOptions
    private(set) var bytes: ContiguousArray<UInt8> = []
    /// Where each row's bytes end; row r's start where row r - 1's end.
    private(set) var ends: ContiguousArray<UInt32> = []

    static let textMarker: UInt8 = 0xFF
    static let nilMarker: UInt8 = 0xFE

    /// Reads `rows` rows: `read(row, add)` calls `add` once per attribute, in order, with its text or nil.
    init(
        keyPaths: [AnyKeyPath], options: String.CompareOptions, rows: Int,
        read: (Int, (String?) -> Void) throws -> Void
    ) throws {
        self.keyPaths = keyPaths
        self.options = options
        ends.reserveCapacity(rows)
        bytes.reserveCapacity(rows * 12)
        let caseless = options.contains(.caseInsensitive)
        for row in 0..<rows {
            try read(row) { text in
                guard let text else { bytes.append(Self.nilMarker); return }
                bytes.append(Self.textMarker)
                let ascii = text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
                    var any: UInt8 = 0
                    for byte in utf8 { any |= byte }
                    guard any < 0x80 else { return false }
                    // ASCII folds to itself, lowercased when caseless (as TextFolding does).
                    if caseless {
                        for byte in utf8 { bytes.append(byte &- 65 < 26 ? byte | 0x20 : byte) }
                    } else {
                        bytes.append(contentsOf: utf8)
                    }
                    return true
                }
                if ascii != true { bytes.append(contentsOf: StringTextTest.fold(text, options).utf8) }
            }
            guard let end = UInt32(exactly: bytes.count) else { throw SearchIndexTooLarge() }
            ends.append(end)
        }
    }

    var count: Int { ends.count }

    /// More than 4 GiB of text: the store answers such a search.
    struct SearchIndexTooLarge: Error {}

    /// Whether this index answers `filter`.
    func answers<Entity>(_ filter: StringFilter<Entity>) -> Bool {
        filter.foldingOptions == options && filter.textKeyPaths.map { $0 as AnyKeyPath } == keyPaths
    }

    /// Clears each row's verdict whose texts do not meet `test` (whose
    /// options must be the index's); rows already false are not tested.
    /// Shares of the rows are tested on several threads.
    /// - Complexity: O(b) for the b bytes of the rows tested.
    func narrow(_ verdicts: inout [Bool], to test: StringTextTest) {
        precondition(verdicts.count == count, "SearchIndex: \(verdicts.count) verdicts for \(count) rows")
        let needle = test.foldedNeedleBytes
        let match = test.stringMatch
        let rows = count
        bytes.withUnsafeBufferPointer { bytes in
            ends.withUnsafeBufferPointer { ends in
                needle.withUnsafeBufferPointer { needle in
                    verdicts.withUnsafeMutableBufferPointer { verdicts in
                        let scan = Scan(bytes: bytes, ends: ends, needle: needle, match: match)
                        let shares = Lanes.count(for: rows / 16)
                        let out = UnsafeSendable(verdicts)
                        // Each share writes its own rows' verdicts alone.
                        Lanes.run(shares) { share in
                            let verdicts = out.value
                            for row in rows * share / shares..<rows * (share + 1) / shares where verdicts[row] {
                                verdicts[row] = scan.matches(row)
                            }
                        }
                    }
                }
            }
        }
    }

    /// A buffer handed to the threads of ``Lanes/run(_:_:)``, each of which writes a part of it of its own.
    private struct UnsafeSendable<Value>: @unchecked Sendable {  // disjoint writes, joined before the buffer's owner reads
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// One keystroke's test over the index's memory.
    private struct Scan: @unchecked Sendable {  // read-only views of buffers that outlive every thread reading them
        let bytes: UnsafeBufferPointer<UInt8>
        let ends: UnsafeBufferPointer<UInt32>
        let needle: UnsafeBufferPointer<UInt8>
        let match: StringMatch

        @inline(__always) func matches(_ row: Int) -> Bool {
            var p = row == 0 ? 0 : Int(ends[row - 1])
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
            case .contains:
                guard n > 0 else { return true }
                let first = needle[0]
                var i = start
                let last = end - n
                while i <= last {
                    if bytes[i] == first && same(i) { return true }
                    i += 1
                }
                return false
            }
        }

        @inline(__always) func same(_ at: Int) -> Bool {
            for j in 0..<needle.count where bytes[at + j] != needle[j] { return false }
            return true
        }
    }
}
