import FolioTestSupport
import Foundation

/// What `list` and `list --json` print, as the monkey compares it with the
/// screen: each object's listed fields (its position aside), and the table
/// in order — section headers and rows with the text their cells show.
struct MonkeyListing {
    /// One line of the table: a section header or a row.
    struct Item: Equatable, CustomStringConvertible {
        /// Whether this is a header (else a row).
        let header: Bool
        /// The header's title, or the row's object ("Planet/3").
        let name: String
        /// The text `list` prints for it.
        let text: String

        var description: String { header ? "[\(text)]" : "\(name) \(text)" }
    }

    /// Each listed object ("Planet/3") and its listed fields as JSON.
    var fields: [String: String] = [:]
    /// Headers and rows in table order.
    var items: [Item] = []

    /// Reads the store through the app's own `list` and `list --json`.
    init(_ folio: FolioBinary, entity: String) throws {
        let sections = try folio.sections()
        // `list` prints a header line per named section, then each row indented by two spaces.
        var texts = try folio.run("list").stdout.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { $0.hasPrefix("  ") }.map { String($0.dropFirst(2)) }[...]
        for section in sections {
            if !section.name.isEmpty { items.append(Item(header: true, name: section.name, text: section.name)) }
            for row in section.rows {
                guard let id = row["id"] as? String else { continue }
                let name = "\(entity)/\(id)"
                let kept = row.filter { $0.key != "id" && $0.key != "position" }
                fields[name] = String(decoding: try JSONSerialization.data(withJSONObject: kept, options: .sortedKeys), as: UTF8.self)
                items.append(Item(header: false, name: name, text: texts.popFirst() ?? ""))
            }
        }
    }

    /// One item the app's last frame drew, from its debug state's `drawn`.
    struct Drawn {
        let line: Int, height: Int, header: Bool, name: String
    }

    /// The items of `state["drawn"]`, top to bottom (footers left out).
    static func drawn(_ state: [String: String]) -> [Drawn] {
        (state["drawn"] ?? "").split(separator: "\u{1E}").compactMap { record in
            let parts = record.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            guard parts.count == 4, let line = Int(parts[0]), let height = Int(parts[1]), parts[2] != "F" else { return nil }
            return Drawn(line: line, height: height, header: parts[2] == "H", name: String(parts[3]))
        }
    }

    /// Why the screen of `app` does not show this table, or nil when it does:
    /// the drawn items, in order and on consecutive lines, are the slice of
    /// the table that starts at the first of them (with no filter), or the
    /// rows in the table's order (with one); the viewport is full unless the
    /// table ends; each line shows its item's text (cut short with "…" at most).
    func mismatch(_ app: PtyApp) -> String? {
        let state = app.state
        let drawn = Self.drawn(state)
        let filtered = !(state["search"] ?? "").isEmpty
        guard let top = Int(state["tableTop"] ?? ""), let bottom = Int(state["tableBottom"] ?? "") else { return "no table in the state" }
        var index: [String: Int] = [:]
        for (at, item) in items.enumerated() where index[(item.header ? "H " : "R ") + item.name] == nil {
            index[(item.header ? "H " : "R ") + item.name] = at
        }
        var expected: [Item] = []
        if filtered {
            // Rows only: a subsequence of the table, in its order.
            var last = -1
            for item in drawn where !item.header {
                guard let at = index["R " + item.name], at > last else {
                    return "row \(item.name) is not in list, or out of list's order"
                }
                last = at
                expected.append(items[at])
            }
        } else if let first = drawn.first {
            guard let start = index[(first.header ? "H " : "R ") + first.name] else { return "\(first.name) is not in list" }
            if start == 0, first.line != top { return "the table's first item is on line \(first.line), not at its top \(top)" }
            expected = Array(items[start..<min(items.count, start + drawn.count)])
            let shown = drawn.map { ($0.header, $0.name) }, listed = expected.map { ($0.header, $0.name) }
            guard shown.elementsEqual(listed, by: { $0 == $1 }) else {
                return "the screen's items are not list's, in order from \(first.name)"
            }
            for (a, b) in zip(drawn, drawn.dropFirst()) where b.line != a.line + a.height {
                return "\(b.name) is on line \(b.line), not right after \(a.name) (line \(a.line), \(a.height) high)"
            }
            if let last = drawn.last, last.line + last.height < bottom, start + drawn.count < items.count {
                return "the screen ends at line \(last.line + last.height) of \(bottom) with list's \(items[start + drawn.count]) not shown"
            }
        } else if !items.isEmpty {
            return "the screen shows no rows; list has \(items.count) lines"
        }
        let swiped = state["swiped"] != nil || state["confirming"] != nil
        let lines = app.lines
        for (item, listed) in zip(drawn.filter { filtered ? !$0.header : true }, expected) {
            guard item.line < lines.count else { return "\(item.name) is drawn below the screen" }
            if swiped && !item.header { continue }  // actions cover the row's end
            guard Self.shows(lines[item.line], listed.text) else {
                return "line \(item.line) shows “\(lines[item.line])”, list's \(listed.name) is “\(listed.text)”"
            }
        }
        return nil
    }

    /// Whether a screen line shows `text`'s first part (up to " — " or "  ",
    /// where a cell's detail starts) whole, or cut short with "…".
    static func shows(_ line: String, _ text: String) -> Bool {
        let marks = Set("▸⊖⊕◉○ ")
        let shown = Substring(line.drop { marks.contains($0) })
        var head = Substring(text)
        for separator in [" — ", "  "] { if let range = head.range(of: separator) { head = head[..<range.lowerBound] } }
        head = Substring(head.trimmingCharacters(in: .whitespaces))
        if head.isEmpty || shown.hasPrefix(head) { return true }
        let common = zip(shown, head).prefix { $0 == $1 }.count
        return shown.dropFirst(common).hasPrefix("…") || (common > 0 && shown.dropFirst(common).first == "…")
    }

    /// The table's lines as list prints them, from the item named `from` on, `count` of them.
    func text(from name: String?, count: Int) -> String {
        let start = name.flatMap { n in items.firstIndex { $0.name == n } } ?? 0
        return items[start..<min(items.count, start + max(count, 1))].map(\.description).joined(separator: "\n")
    }
}
