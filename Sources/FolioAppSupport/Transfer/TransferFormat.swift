import FolioStore

/// The formats of `import` and `export`: JSON in the shape `list --json`
/// prints, or CSV with a header row of the same field names.
///
/// ```swift
/// try TransferFormat.choose(option: nil, path: "zoo.csv")   // .csv
/// ```
package enum TransferFormat: String, Sendable {
    case json
    case csv

    /// `--format` when given, else the file's extension, else JSON (for
    /// standard output); an unknown one is a usage error.
    package static func choose(option: String?, path: String?) throws -> TransferFormat {
        if let option {
            guard let format = TransferFormat(rawValue: option.lowercased()) else {
                throw AppError.usage(message: "--format must be json or csv, not '\(AppError.shown(option))'")
            }
            return format
        }
        guard let path, path != "-" else { return .json }
        let ext = path.split(separator: "/").last.flatMap { name in name.contains(".") ? name.split(separator: ".").last : nil }
        switch ext?.lowercased() {
        case "json": return .json
        case "csv": return .csv
        default:
            throw AppError.usage(
                message: "cannot tell the format of '\(AppError.shown(path))' from its name: add --format json or --format csv")
        }
    }

    /// The rows of a file in this format: JSON as `list --json` prints it
    /// (sections, each with its rows), CSV as a header row then a row per
    /// line. Fields not in `known` (besides `id`, which the store assigns
    /// anew) are refused, so a misspelt column never loses its data.
    package func records(_ bytes: [UInt8], known: [String]) throws -> [ImportRecord] {
        switch self {
        case .csv: try Self.csvRecords(bytes, known: known)
        case .json: try Self.jsonRecords(bytes, known: known)
        }
    }

    private static func csvRecords(_ bytes: [UInt8], known: [String]) throws -> [ImportRecord] {
        let allowed = Set(known + ["id"])
        var reader = CSVText.Reader(bytes)
        var fields: [String] = []
        do {
            guard let headerLine = try reader.next(into: &fields) else { return [] }
            var seen = Set<String>()
            for name in fields {
                guard allowed.contains(name) else { throw unknownField(name, line: headerLine, known: known) }
                guard seen.insert(name).inserted else {
                    throw ImportError(line: headerLine, field: name, reason: "the column is given twice")
                }
            }
            var table = ImportTable.Builder(names: fields, fromCSV: true)
            let width = fields.count
            while let line = try reader.next(into: &fields) {
                guard fields.count == width else {
                    throw ImportError(line: line, field: nil, reason: "\(fields.count) fields where the header has \(width)")
                }
                table.addRow(line: line, texts: fields)
            }
            return table.build().records
        } catch let error as CSVText.Problem {
            throw ImportError(line: error.line, field: nil, reason: error.reason)
        }
    }

    /// JSON rows as they are read, each row's values straight into the
    /// table's cells: no tree of the whole file.
    private static func jsonRecords(_ bytes: [UInt8], known: [String]) throws -> [ImportRecord] {
        let shape = "the JSON must be as `list --json` prints it: [{\"name\": …, \"rows\": [{…}, …]}, …]"
        var reader = JSONReader(bytes)
        let names = ["id"] + known
        var table = ImportTable.Builder(names: names, fromCSV: false)
        do {
            guard reader.next() == .array || reader.next() == nil else { throw ImportError(line: reader.line, field: nil, reason: shape) }
            guard try reader.beginArray() else {
                try reader.end()
                return []
            }
            repeat {
                // A section: its name (any value) and its rows.
                guard reader.next() == .object else { throw ImportError(line: reader.line, field: nil, reason: shape) }
                var seen: Set<String> = []
                if try reader.beginObject() {
                    repeat {
                        let key = try reader.key()
                        guard key == "name" || key == "rows" else { throw ImportError(line: reader.line, field: nil, reason: shape) }
                        guard seen.insert(key).inserted else { throw notJSON(reader, "the key \"\(key)\" is given twice") }
                        if key == "name" {
                            _ = try reader.value(depth: 2)
                        } else {
                            guard reader.next() == .array else { throw ImportError(line: reader.line, field: nil, reason: shape) }
                            try readRows(&reader, into: &table, known: known)
                        }
                    } while try reader.nextMember()
                }
                guard seen.contains("rows") else { throw ImportError(line: reader.line, field: nil, reason: shape) }
            } while try reader.nextElement()
            try reader.end()
        } catch let error as JSONReader.Problem {
            throw notJSON(error)
        }
        return table.build().records
    }

    /// A section's rows (the reader at their `[`).
    private static func readRows(_ reader: inout JSONReader, into table: inout ImportTable.Builder, known: [String]) throws {
        let names = table.names.map { Array($0.utf8) }
        guard try reader.beginArray() else { return }
        repeat {
            guard reader.next() == .object else {
                throw ImportError(line: reader.line, field: nil, reason: "a row must be an object of fields and values")
            }
            let line = reader.line
            table.addRow(line: line)
            guard try reader.beginObject() else { continue }
            repeat {
                let column: Int
                switch try reader.key(in: names) {
                case .success(let found): column = found
                case .failure(let unknown): throw unknownField(unknown.key, line: line, known: known)
                }
                guard !table.isSet(column) else { throw notJSON(reader, "the key \"\(table.names[column])\" is given twice") }
                table.set(column, try reader.value(depth: 4))
            } while try reader.nextMember()
        } while try reader.nextElement()
    }

    private static func notJSON(_ problem: JSONReader.Problem) -> ImportError {
        ImportError(line: problem.line, field: nil, reason: "not JSON: \(problem.reason)")
    }

    private static func notJSON(_ reader: JSONReader, _ reason: String) -> ImportError {
        ImportError(line: reader.line, field: nil, reason: "not JSON: \(reason)")
    }

    private static func unknownField(_ name: String, line: Int, known: [String]) -> ImportError {
        ImportError(line: line, field: name, reason: "not a field here; the fields are id, \(known.joined(separator: ", "))")
    }
}
