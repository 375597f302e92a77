import FolioStore
import Foundation

/// A results cache file opened by a relaunch: its section table and every
/// row ID are read and checked at once (8 bytes a row, read in one go), so
/// whatever the table asks for is answered from checked data and no damage
/// can be found after something was drawn; the rows' keys are read only
/// when the whole order is loaded into an engine (``CachedRows``), off the
/// main actor. The file stays open, so a change that removes or replaces it
/// meanwhile cannot change what is read.
///
/// ```swift
/// let order = ResultsCache.open(name: "Animals", plan: plan, context: context)
/// order?.id(atRow: 0, inSection: 0)
/// ```
final class CachedOrder {
    /// One section as the file lists it: its key, its row count and where its rows start in the file's row order.
    struct Section: Sendable {
        let key: SectionKey
        let count: Int
        let start: Int
    }

    /// What loading the whole order needs; it may run on another thread.
    let rows: CachedRows
    var sections: [Section] { rows.sections }
    var rowCount: Int { rows.ids.count }

    /// Opens a file whose head has been checked; nil unless every chunk of IDs checks too.
    /// - Complexity: O(n), one read of 8 bytes a row.
    init?(file: CacheFile, layout: CacheLayout, sections: [Section], keyAscending: [Bool], fixedSection: SectionKey?) {
        guard let ids = Self.checkedIDs(file, layout) else { return nil }
        rows = CachedRows(file: file, layout: layout, sections: sections, ids: ids, keyAscending: keyAscending, fixedSection: fixedSection)
    }

    // Nobody can show this order any more: a load still under way stops.
    deinit { rows.file.abandon() }

    var numberOfSections: Int { sections.count }

    /// The row ID at `row` of section `section`.
    /// - Complexity: O(1).
    func id(atRow row: Int, inSection section: Int) -> Int64 {
        rows.ids[sections[section].start + row]
    }

    /// The row IDs of `rows` of section `section`.
    func ids(inSection section: Int, rows range: Range<Int>) -> [Int64] {
        let start = sections[section].start
        return Array(rows.ids[start + range.lowerBound..<start + range.upperBound])
    }

    /// Every ID in the file's order, each chunk checked against its checksum; nil on any damage.
    private static func checkedIDs(_ file: CacheFile, _ layout: CacheLayout) -> [Int64]? {
        guard let bytes = file.read(at: layout.idsOffset, count: layout.rowCount * 8),
            let sums = file.read(at: layout.sumsOffset, count: layout.chunkCount * 8)
        else { return nil }
        return bytes.withUnsafeBytes { ids -> [Int64]? in
            let intact = sums.withUnsafeBytes { sums in
                (0..<layout.chunkCount).allSatisfy { chunk in
                    let sum = UInt64(littleEndian: sums.loadUnaligned(fromByteOffset: chunk * 8, as: UInt64.self))
                    return CacheLayout.checksum(UnsafeRawBufferPointer(rebasing: ids[layout.chunkByteRange(chunk)])) == sum
                }
            }
            guard intact else { return nil }
            return (0..<layout.rowCount).map { Int64(littleEndian: ids.loadUnaligned(fromByteOffset: $0 * 8, as: Int64.self)) }
        }
    }
}
