extension ChangeSet {
    /// A compact text form for the history table, one line per entity and
    /// kind, IDs as ranges: `+Animal 1-500,502`, `-Zoo 3`, `~Animal 7 name,habitat`.
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
        for (id, keys) in updated.sorted(by: { $0.key < $1.key }) {
            lines.append("~\(id.entityName) \(id.rowID) \(keys.sorted().joined(separator: ","))")
        }
        return lines.joined(separator: "\n")
    }

    /// Reads ``historyText()`` back; malformed lines are skipped.
    package init(historyText text: String, origin: Origin) {
        self.init(origin: origin)
        for line in text.split(separator: "\n") {
            guard let mark = line.first else { continue }
            let fields = line.dropFirst().split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count >= 2 else { continue }
            let entity = String(fields[0])
            switch mark {
            case "+", "-":
                for part in fields[1].split(separator: ",") {
                    let bounds = part.split(separator: "-").compactMap { Int64($0) }
                    guard let low = bounds.first, let high = bounds.last, low <= high else { continue }
                    for row in low...high {
                        let id = ObjectID(entityName: entity, rowID: row)
                        if mark == "+" { inserted.insert(id) } else { deleted.insert(id) }
                    }
                }
            case "~":
                guard let row = Int64(fields[1]) else { continue }
                let keys = fields.count > 2 ? fields[2].split(separator: ",").map(String.init) : []
                updated[ObjectID(entityName: entity, rowID: row)] = Set(keys)
            default: continue
            }
        }
    }
}
