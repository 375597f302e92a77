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
/// index.matching(StringTextTest(.contains("LI"), options: [.caseInsensitive]), among: nil)   // [0]
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
}
