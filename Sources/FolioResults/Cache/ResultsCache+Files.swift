import FolioStore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// Reading and writing cache files (see ``CacheLayout`` for the format).

extension ResultsCache {
    /// The cache opened for a relaunch, or nil when there is no valid one (an
    /// invalid one is removed). Reads the head, the section table and every
    /// row ID (8 bytes a row), each part checked; the keys are left for the load.
    static func open<E>(name: String, plan: KeyPlan<E>, context: ObjectContext) -> CachedOrder? {
        guard let header = header(plan, context: context) else { return nil }
        let descriptor = Glibc.open(file(name).path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        let opened = order(CacheFile(descriptor: descriptor), header: Array(header.utf8), plan: plan)
        if opened == nil { delete(name: name) }
        return opened
    }

    private static func order<E>(_ file: CacheFile, header: [UInt8], plan: KeyPlan<E>) -> CachedOrder? {
        guard let size = file.size else { return nil }
        let headLength = header.count + CacheLayout.headFields * 8
        guard size >= headLength, let start = file.read(at: 0, count: headLength),
            start.prefix(header.count).elementsEqual(header)
        else { return nil }
        var fields = CacheReader(bytes: Array(start[header.count...]))
        let head = (0..<CacheLayout.headFields).compactMap { _ in fields.int64() }
        guard let layout = CacheLayout(textLength: header.count, head: head, fileSize: size),
            let table = file.read(at: layout.tableOffset, count: layout.tableLength)
        else { return nil }
        let checked = (start[..<(headLength - 8)] + table).withUnsafeBytes { CacheLayout.checksum($0) }
        guard checked == UInt64(bitPattern: head[5]) else { return nil }
        // The sections: strictly in order, counts adding up to the rows.
        var reader = CacheReader(bytes: table)
        var sections: [CachedOrder.Section] = []
        sections.reserveCapacity(layout.sectionCount)
        var rows = 0
        for _ in 0..<layout.sectionCount {
            guard let value = reader.value(), let count = reader.int64(), count >= 0, count <= Int64(layout.rowCount - rows) else {
                return nil
            }
            let key = plan.sectioned ? SectionKey(value, ascending: plan.ascending[0]) : SectionKey(.null, ascending: true)
            if let last = sections.last, !(last.key < key) { return nil }
            sections.append(CachedOrder.Section(key: key, count: Int(count), start: rows))
            rows += Int(count)
        }
        guard reader.atEnd, rows == layout.rowCount, plan.sectioned || sections.count == 1 else { return nil }
        let first = plan.sectioned ? 1 : 0
        return CachedOrder(
            file: file, layout: layout, sections: sections,
            keyAscending: Array(plan.ascending[first..<plan.sortCount]),
            fixedSection: plan.sectioned ? nil : SectionKey(.null, ascending: true))
    }

    /// Writes the rows in their current order; failures leave no cache.
    /// - Complexity: O(n).
    static func store<E>(name: String, plan: KeyPlan<E>, engine: ResultsEngine<Int64, RowKey, SectionKey>, context: ObjectContext) {
        guard let header = header(plan, context: context) else { return }
        var table = CacheWriter(), ids = CacheWriter(), keys = CacheWriter()
        var rowCount = 0
        for section in 0..<engine.numberOfSections {
            let sectionIDs = engine.ids(inSection: section)
            table.value(engine.section(at: section).value)
            table.int64(Int64(sectionIDs.count))
            for id in sectionIDs {
                guard let row = engine.row(for: id) else { continue }
                ids.int64(id)
                for value in row.key.values { keys.value(value) }
            }
            rowCount += sectionIDs.count
        }
        let text = Array(header.utf8)
        let layout = CacheLayout(
            textLength: text.count, sectionCount: engine.numberOfSections, rowCount: rowCount,
            tableLength: table.bytes.count, keysLength: keys.bytes.count,
            keysChecksum: keys.bytes.withUnsafeBytes { CacheLayout.checksum($0) })
        var file = CacheWriter()
        file.bytes.reserveCapacity(layout.fileLength)
        file.bytes.append(contentsOf: text)
        for field in [layout.sectionCount, layout.rowCount, layout.tableLength, layout.keysLength] { file.int64(Int64(field)) }
        file.int64(Int64(bitPattern: layout.keysChecksum))
        file.bytes.append(contentsOf: table.bytes)
        let headSum = file.bytes.withUnsafeBytes { CacheLayout.checksum($0) }
        file.bytes.removeLast(table.bytes.count)
        file.int64(Int64(bitPattern: headSum))
        file.bytes.append(contentsOf: table.bytes)
        file.bytes.append(contentsOf: ids.bytes)
        ids.bytes.withUnsafeBytes { raw in
            for chunk in 0..<layout.chunkCount {
                let sum = CacheLayout.checksum(UnsafeRawBufferPointer(rebasing: raw[layout.chunkByteRange(chunk)]))
                file.int64(Int64(bitPattern: sum))
            }
        }
        file.bytes.append(contentsOf: keys.bytes)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(file.bytes).write(to: self.file(name), options: .atomic)
        } catch {
            delete(name: name)
        }
    }
}
