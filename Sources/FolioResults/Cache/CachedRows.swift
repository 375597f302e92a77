import FolioStore
import Foundation

/// Loads a relaunch's whole cached order into a new engine, on any thread:
/// the open file, where its keys lie, the sections and the checked IDs.
///
/// ```swift
/// let rows = order.rows
/// let loaded = await Task.detached { rows.load() }.value   // nil: damaged keys, or abandoned
/// ```
struct CachedRows: Sendable {
    typealias Engine = ResultsEngine<Int64, RowKey, SectionKey>

    let file: CacheFile
    let layout: CacheLayout
    let sections: [CachedOrder.Section]
    let ids: [Int64]
    let keyAscending: [Bool]
    let fixedSection: SectionKey?

    /// How many rows are read between checks that the load is still wanted.
    static var rowsPerCheck: Int { 16_384 }

    /// The whole order in a new engine, or nil when the keys are unreadable or
    /// damaged, or nobody wants the order any more.
    /// - Complexity: O(n).
    func load() -> LoadedOrder? {
        guard let keyBytes = file.read(at: layout.keysOffset, count: layout.keysLength),
            keyBytes.withUnsafeBytes({ CacheLayout.checksum($0) }) == layout.keysChecksum
        else { return nil }
        let width = keyAscending.count
        var reader = CacheReader(bytes: keyBytes)
        var rows: [ResultsRow<Int64, RowKey, SectionKey>] = []
        rows.reserveCapacity(ids.count)
        var values: [StoreValue] = []
        values.reserveCapacity(width)
        for section in sections {
            for position in section.start..<section.start + section.count {
                if position % Self.rowsPerCheck == 0, file.isAbandoned { return nil }
                values.removeAll(keepingCapacity: true)
                for _ in 0..<width {
                    guard let value = reader.value() else { return nil }
                    values.append(value)
                }
                rows.append(ResultsRow(id: ids[position], key: RowKey(values[...], ascending: keyAscending[...]), section: section.key))
            }
        }
        guard reader.atEnd, !file.isAbandoned else { return nil }
        let engine = Engine(fixedSection: fixedSection)
        engine.load(rows)
        return LoadedOrder(engine: engine)
    }
}

/// An engine built by a load, handed to the controller whole.
// @unchecked: the loading task builds it and keeps no reference once it returns it.
final class LoadedOrder: @unchecked Sendable {
    let engine: CachedRows.Engine
    init(engine: CachedRows.Engine) { self.engine = engine }
}
