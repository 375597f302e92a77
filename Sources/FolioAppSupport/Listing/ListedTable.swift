/// A table as an app shows it, for `list` and `list --json`: sections of rows,
/// each row with its store id, the text the cell shows and its fields.
///
/// ```swift
/// let table = ListedTable(sections: [
///     .init(name: "Primates", rows: [
///         .init(id: "3", text: "Mantled Howler — Primate Exhibit",
///               fields: [("commonName", .string("Mantled Howler"))]),
///     ]),
/// ])
/// print(table.plainText)   // "Primates\n  Mantled Howler — Primate Exhibit\n"
/// ```
public struct ListedTable: Sendable {
    /// One section: its header (empty for a table without headers) and rows.
    public struct Section: Sendable {
        /// The header text; an empty name prints no header line.
        public var name: String
        /// The rows, in table order.
        public var rows: [Row]

        /// A section named `name` holding `rows`.
        public init(name: String, rows: [Row]) {
            self.name = name
            self.rows = rows
        }
    }

    /// One row: its id in the store, the text of its cell, its fields.
    public struct Row: Sendable {
        /// The object's id, as `locations delete ID` takes it.
        public var id: String
        /// The cell's text on one line.
        public var text: String
        /// The fields for `--json`, in order (the id comes first on its own).
        public var fields: [(String, JSONValue)]

        /// A row; `fields` are printed after `id` in `--json`.
        public init(id: String, text: String, fields: [(String, JSONValue)]) {
            self.id = id
            self.text = text
            self.fields = fields
        }
    }

    /// The sections, in table order.
    public var sections: [Section]

    /// A table of `sections`.
    public init(sections: [Section]) {
        self.sections = sections
    }

    /// A line per section header, then each row indented by two spaces.
    /// Control characters in the data are shown as `^[`-style text, never raw.
    ///
    /// - Complexity: O(rows).
    public var plainText: String {
        var out = ""
        for section in sections {
            if !section.name.isEmpty { out += TextSanitizer.visible(section.name) + "\n" }
            for row in section.rows {
                out += "  " + TextSanitizer.visible(row.text) + "\n"
            }
        }
        return out
    }

    /// An array of sections, each `{"name":…, "rows":[{"id":…, …fields}]}`.
    ///
    /// - Complexity: O(rows).
    public var json: JSONValue {
        .array(
            sections.map { section in
                .object([
                    ("name", .string(section.name)),
                    (
                        "rows",
                        .array(
                            section.rows.map { row in
                                .object([("id", .string(row.id))] + row.fields)
                            })
                    ),
                ])
            })
    }
}
