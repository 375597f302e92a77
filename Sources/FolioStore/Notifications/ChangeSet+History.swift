extension ChangeSet {
    /// A compact text form for the history table, one line per entity and
    /// kind (and for updates, set of changed keys), IDs as ranges:
    /// `+Animal 1-500,502`, `-Zoo 3`, `~Animal 7,9-12 name,habitat`.
    /// A save of a million inserts is one short line.
    ///
    /// - Complexity: O(n log n) for n IDs.
    package func historyText(inserted extra: [ObjectID] = []) -> String {
        var lines: [String] = []
        func ranges(_ ids: [Int64]) -> String {
            var parts: [String] = []
            var i = 0
            let sorted = ids.sorted()
            while i < sorted.count {
                var j = i
                while j + 1 < sorted.count && sorted[j + 1] == sorted[j] + 1 { j += 1 }
                parts.append(i == j ? "\(sorted[i])" : "\(sorted[i])-\(sorted[j])")
                i = j + 1
            }
            return parts.joined(separator: ",")
        }
        for (mark, ids) in [("+", Array(inserted) + extra), ("-", Array(deleted))] {
            for (entity, group) in Dictionary(grouping: ids, by: \.entityName).sorted(by: { $0.key < $1.key }) {
                lines.append("\(mark)\(entity) \(ranges(group.map(\.rowID)))")
            }
        }
        // Updates with the same keys share a line, so a batch update of many rows stays compact.
        var byKeys: [String: [String: [Int64]]] = [:]
        for (id, keys) in updated { byKeys[id.entityName, default: [:]][keys.sorted().joined(separator: ","), default: []].append(id.rowID) }
        for (entity, groups) in byKeys.sorted(by: { $0.key < $1.key }) {
            for (keys, rows) in groups.sorted(by: { $0.key < $1.key }) {
                lines.append("~\(entity) \(ranges(rows))" + (keys.isEmpty ? "" : " \(keys)"))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Reads ``historyText()`` back; malformed lines are skipped.
    package init(historyText text: String, origin: Origin) {
        self.init(origin: origin)
        for line in text.split(separator: "\n") {
            guard let mark = line.first, "+-~".contains(mark) else { continue }
            let fields = line.dropFirst().split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count >= 2 else { continue }
            let entity = String(fields[0])
            let keys = Set(fields.count > 2 ? fields[2].split(separator: ",").map(String.init) : [])
            for part in fields[1].split(separator: ",") {
                let bounds = part.split(separator: "-").compactMap { Int64($0) }
                guard let low = bounds.first, let high = bounds.last, low <= high else { continue }
                for row in low...high {
                    let id = ObjectID(entityName: entity, rowID: row)
                    switch mark {
                    case "+": inserted.insert(id)
                    case "-": deleted.insert(id)
                    default: updated[id] = keys
                    }
                }
            }
        }
    }
}
