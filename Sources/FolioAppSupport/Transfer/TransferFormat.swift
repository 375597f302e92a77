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
        let allowed = Set(known + ["id"])
        switch self {
        case .csv:
            let rows: [(line: Int, fields: [String])]
            do { rows = try CSVText.records(bytes) } catch { throw ImportError(line: error.line, field: nil, reason: error.reason) }
            guard let header = rows.first else { return [] }
            var seen = Set<String>()
            for name in header.fields {
                guard allowed.contains(name) else { throw unknownField(name, line: header.line, known: known) }
                guard seen.insert(name).inserted else {
                    throw ImportError(line: header.line, field: name, reason: "the column is given twice")
                }
            }
            let columns = ImportRecord.Columns(header.fields)
            return try rows.dropFirst().map { row in
                guard row.fields.count == header.fields.count else {
                    throw ImportError(
                        line: row.line, field: nil, reason: "\(row.fields.count) fields where the header has \(header.fields.count)")
                }
                return ImportRecord(line: row.line, columns: columns, cells: row.fields)
            }
        case .json:
            var reader = JSONReader(bytes)
            let document: JSONValue
            do { document = try reader.document() } catch {
                throw ImportError(line: error.line, field: nil, reason: "not JSON: \(error.reason)")
            }
            let shape = "the JSON must be as `list --json` prints it: [{\"name\": …, \"rows\": [{…}, …]}, …]"
            guard case .array(let sections) = document else { throw ImportError(line: 1, field: nil, reason: shape) }
            var records: [ImportRecord] = []
            let names = ["id"] + known, columns = ImportRecord.Columns(names)
            var lines = reader.objectLines.makeIterator()
            for section in sections {
                guard case .object(let pairs) = section, pairs.allSatisfy({ $0.0 == "name" || $0.0 == "rows" }) else {
                    throw ImportError(line: 0, field: nil, reason: shape)
                }
                guard case .array(let rows)? = pairs.first(where: { $0.0 == "rows" })?.1 else {
                    throw ImportError(line: 0, field: nil, reason: shape)
                }
                for row in rows {
                    guard case .object(let pairs) = row else { throw ImportError(line: 0, field: nil, reason: shape) }
                    let line = lines.next() ?? 0
                    var values = [JSONValue?](repeating: nil, count: names.count)
                    for (name, value) in pairs {
                        guard let index = columns.index[name] else { throw unknownField(name, line: line, known: known) }
                        values[index] = value
                    }
                    records.append(ImportRecord(line: line, columns: columns, values: values))
                }
            }
            return records
        }
    }

    private func unknownField(_ name: String, line: Int, known: [String]) -> ImportError {
        ImportError(line: line, field: name, reason: "not a field here; the fields are id, \(known.joined(separator: ", "))")
    }
}
