import Foundation

extension AppTransfer {
    /// `list --json`'s value written a row per line, so that an import's
    /// error can name the line of a row.
    ///
    /// - Complexity: O(rows).
    nonisolated package static func json(_ table: ListedTable) -> String {
        guard case .array(let sections) = table.json, !sections.isEmpty else { return "[]\n" }
        var out = "["
        for (s, section) in table.sections.enumerated() {
            if s > 0 { out += ",\n" }
            out += "{\"name\":" + JSONValue.string(section.name).text + ",\"rows\":["
            for (r, row) in section.rows.enumerated() {
                out += (r > 0 ? ",\n" : "\n") + JSONValue.object([("id", .string(row.id))] + row.fields).text
            }
            out += "\n]}"
        }
        return out + "]\n"
    }

    /// A header row of `id` and `fields`, then a row per table row; a list
    /// is a cell holding its JSON array, null an empty cell. Lines end in LF.
    ///
    /// - Complexity: O(rows).
    nonisolated package static func csv(_ table: ListedTable, fields: [String]) -> String {
        var out = CSVText.line(["id"] + fields) + "\n"
        for section in table.sections {
            for row in section.rows {
                let values = Dictionary(row.fields, uniquingKeysWith: { first, _ in first })
                out += CSVText.line([row.id] + fields.map { cell(values[$0] ?? .null) }) + "\n"
            }
        }
        return out
    }

    nonisolated private static func cell(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .null: ""
        default: value.text
        }
    }

    /// Writes `text` to `path` whole or not at all: into a new file beside
    /// it, then moved into place. Without `replacing`, an existing file
    /// (made meanwhile, too) is refused, never overwritten.
    static func write(_ text: String, to path: String, replacing: Bool) throws {
        let target = URL(fileURLWithPath: path)
        let temporary = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).\(getpid()).partial")
        do {
            try Data(text.utf8).write(to: temporary, options: .withoutOverwriting)
        } catch {
            throw AppError.invalidValue(
                option: "FILE", value: path, reason: "cannot be written: \((error as NSError).localizedDescription)")
        }
        defer { unlink(temporary.path) }
        // link() fails when the name exists: no check-then-write race; rename() replaces.
        let moved = replacing ? rename(temporary.path, path) : link(temporary.path, path)
        guard moved == 0 else {
            let reason =
                errno == EEXIST ? "already exists; add --force to replace it" : "cannot be written: \(String(cString: strerror(errno)))"
            throw AppError.invalidValue(option: "FILE", value: path, reason: reason)
        }
    }
}
