import Foundation
import FolioStore
#if canImport(Glibc)
import Glibc
#endif

/// A results cache file opened by a relaunch: its section table is read at
/// once, row IDs by position on demand (a checked chunk at a time), and the
/// rows' keys only when the whole order is loaded into the engine. The file
/// stays open, so a change that removes or replaces it meanwhile cannot
/// change what is read; nothing unchecked is ever returned.
///
/// ```swift
/// let order = ResultsCache.open(name: "Animals", plan: plan, context: context)
/// order?.id(atRow: 0, inSection: 0)
/// ```
final class CachedOrder {
    /// One section as the file lists it: its key, its row count and where its rows start in the file's row order.
    struct Section {
        let key: SectionKey
        let count: Int
        let start: Int
    }

    let sections: [Section]
    let rowCount: Int
    private let descriptor: Int32
    private let layout: CacheLayout
    private let keyAscending: [Bool]
    /// Checked chunks of row IDs, by chunk number.
    private var chunks: [Int: [Int64]] = [:]

    /// Opens a file whose head has been checked; nil unless the first screen's IDs check too.
    init?(descriptor: Int32, layout: CacheLayout, sections: [Section], keyAscending: [Bool]) {
        self.descriptor = descriptor
        self.layout = layout
        self.sections = sections
        self.keyAscending = keyAscending
        rowCount = layout.rowCount
        // The first screen's rows (the first ones in the file's order, whatever the sections) are checked now,
        // so that a damaged start falls back to a fresh fetch before anything is shown.
        if rowCount > 0, chunk(0) == nil {
            // A failed init still runs deinit: the opener closes what it could not use.
            ownsDescriptor = false
            return nil
        }
    }

    /// Whether the descriptor is this order's to close. Closing one twice
    /// closes whatever the process opened under that number meanwhile.
    private var ownsDescriptor = true

    deinit { if ownsDescriptor { close(descriptor) } }

    var numberOfSections: Int { sections.count }
    var chunksRead: Int { chunks.count }

    /// The row ID at `row` of section `section`, or nil when its chunk is unreadable or damaged.
    /// - Complexity: O(1), plus one chunk read the first time.
    func id(atRow row: Int, inSection section: Int) -> Int64? {
        let position = sections[section].start + row
        return chunk(position / CacheLayout.chunkRows)?[position % CacheLayout.chunkRows]
    }

    /// The row IDs of `rows` of section `section`, or nil when a chunk is unreadable or damaged.
    func ids(inSection section: Int, rows: Range<Int>) -> [Int64]? {
        var ids: [Int64] = []
        ids.reserveCapacity(rows.count)
        for row in rows {
            guard let id = id(atRow: row, inSection: section) else { return nil }
            ids.append(id)
        }
        return ids
    }

    /// Every row with its keys, in order, or nil when any part is unreadable or damaged.
    /// - Complexity: O(n).
    func rows() -> [ResultsRow<Int64, RowKey, SectionKey>]? {
        guard let keyBytes = read(at: layout.keysOffset, count: layout.keysLength),
              keyBytes.withUnsafeBytes({ CacheLayout.checksum($0) }) == layout.keysChecksum,
              let idBytes = read(at: layout.idsOffset, count: rowCount * 8) else { return nil }
        let sums = read(at: layout.sumsOffset, count: layout.chunkCount * 8)
        guard let sums else { return nil }
        let width = keyAscending.count
        var reader = CacheReader(bytes: keyBytes)
        var rows: [ResultsRow<Int64, RowKey, SectionKey>] = []
        rows.reserveCapacity(rowCount)
        var ok = true
        idBytes.withUnsafeBytes { ids in
            sums.withUnsafeBytes { sums in
                for chunk in 0..<layout.chunkCount {
                    let range = layout.chunkByteRange(chunk)
                    let sum = UInt64(littleEndian: sums.loadUnaligned(fromByteOffset: chunk * 8, as: UInt64.self))
                    guard CacheLayout.checksum(UnsafeRawBufferPointer(rebasing: ids[range])) == sum else {
                        ok = false
                        return
                    }
                }
            }
            guard ok else { return }
            var values: [StoreValue] = []
            values.reserveCapacity(width)
            for section in sections {
                for position in section.start..<section.start + section.count {
                    values.removeAll(keepingCapacity: true)
                    for _ in 0..<width {
                        guard let value = reader.value() else { ok = false; return }
                        values.append(value)
                    }
                    let id = Int64(littleEndian: ids.loadUnaligned(fromByteOffset: position * 8, as: Int64.self))
                    rows.append(ResultsRow(id: id, key: RowKey(values[...], ascending: keyAscending[...]), section: section.key))
                }
            }
        }
        guard ok, reader.atEnd else { return nil }
        return rows
    }

    private func chunk(_ index: Int) -> [Int64]? {
        if let chunk = chunks[index] { return chunk }
        let range = layout.chunkByteRange(index)
        guard let bytes = read(at: layout.idsOffset + range.lowerBound, count: range.count),
              let sum = read(at: layout.sumsOffset + index * 8, count: 8) else { return nil }
        let checked = bytes.withUnsafeBytes { CacheLayout.checksum($0) } == sum.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
        guard checked else { return nil }
        let ids = bytes.withUnsafeBytes { raw in
            (0..<range.count / 8).map { Int64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: Int64.self)) }
        }
        chunks[index] = ids
        return ids
    }

    /// Exactly `count` bytes at `offset`, or nil.
    private func read(at offset: Int, count: Int) -> [UInt8]? {
        CacheLayout.read(descriptor, at: offset, count: count)
    }
}
