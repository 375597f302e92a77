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
        // A save's objects changed alike usually share one key set, so the previous group is tried first
        // (equal sets with the same storage compare at once).
        var groups: [(entity: String, keys: Set<String>, rows: [Int64])] = []
        var groupIndex: [String: [Set<String>: Int]] = [:]
        var last = -1
        for (id, keys) in updated {
            if last < 0 || groups[last].entity != id.entityName || groups[last].keys != keys {
                if let i = groupIndex[id.entityName]?[keys] {
                    last = i
                } else {
                    last = groups.count
                    groupIndex[id.entityName, default: [:]][keys] = last
                    groups.append((id.entityName, keys, []))
                }
            }
            groups[last].rows.append(id.rowID)
        }
        let named = groups.map { (entity: $0.entity, keys: $0.keys.sorted().joined(separator: ","), rows: $0.rows) }
        for group in named.sorted(by: { ($0.entity, $0.keys) < ($1.entity, $1.keys) }) {
            // A group's rows are distinct (dictionary keys), so as many as their span is one range: no sort.
            let low = group.rows.min()!, high = group.rows.max()!
            let text = high &- low == Int64(group.rows.count - 1) ? (low == high ? "\(low)" : "\(low)-\(high)") : ranges(group.rows)
            lines.append("~\(group.entity) \(text)" + (group.keys.isEmpty ? "" : " \(group.keys)"))
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
