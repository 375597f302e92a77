import FolioStore
import Foundation

/// One row of an import file: the line it starts on and its fields by name,
/// as JSON values (a CSV cell is a string until a field asks for a number).
/// Each accessor throws an ``ImportError`` naming the line and the field.
///
/// ```swift
/// let name = try record.text("name")
/// let position = try record.integer("position")   // nil when left out
/// ```
package struct ImportRecord {
    /// The line the row starts on (1 first).
    package let line: Int
    let file: ImportTable
    let row: Int

    /// Row `row` of `file`.
    init(line: Int, file: ImportTable, row: Int) {
        self.line = line
        self.file = file
        self.row = row
    }

    /// Whether the row came from CSV (its cells are text).
    package var fromCSV: Bool { file.fromCSV }

    /// A field's value, nil when the row leaves it out.
    package subscript(_ field: String) -> JSONNode? {
        guard let column = file.column(field) else { return nil }
        return file.cells[row * file.names.count + column]
    }

    /// An error about `field` of this row.
    package func problem(_ field: String, _ reason: String) -> ImportError {
        ImportError(line: line, field: field, reason: reason)
    }

    /// A text field; `defaultValue` when the row leaves it out (required when nil).
    package func text(_ field: String, default defaultValue: String? = nil) throws(ImportError) -> String {
        switch self[field] {
        case .string(let text)?: return text
        case nil, .null?:
            guard let defaultValue else { throw problem(field, "is missing") }
            return defaultValue
        default: throw problem(field, "must be text")
        }
    }

    /// A text field that may be null (an empty cell in CSV): nil then.
    package func optionalText(_ field: String) throws(ImportError) -> String? {
        switch self[field] {
        case nil, .null?: return nil
        case .string(let text)?: return fromCSV && text.isEmpty ? nil : text
        default: throw problem(field, "must be text or null")
        }
    }

    /// A whole number, or nil when the row leaves it out.
    package func integer(_ field: String) throws(ImportError) -> Int64? {
        switch self[field] {
        case nil, .null?: return nil
        case .number(let number)?:
            guard let value = number.int64 else { throw problem(field, "must be a whole number") }
            return value
        case .string(let text)? where fromCSV:
            if text.isEmpty { return nil }
            guard let value = Int64(text) else { throw problem(field, "'\(AppError.shown(text))' is not a whole number") }
            return value
        default: throw problem(field, "must be a whole number")
        }
    }

    /// A number within `range` (required).
    package func decimal(_ field: String, in range: ClosedRange<Double>) throws(ImportError) -> Double {
        let value: Double
        switch self[field] {
        case .number(let number)?:
            guard let double = number.double else { throw problem(field, "\(number.text) is out of range") }
            value = double
        case .string(let text)? where fromCSV:
            do { return try Arguments.decimal(text, named: field, in: range) } catch { throw problem(field, Self.reason(error)) }
        case nil, .null?: throw problem(field, "is missing")
        default: throw problem(field, "must be a number")
        }
        guard range.contains(value) else { throw problem(field, "\(value) is not between \(range.lowerBound) and \(range.upperBound)") }
        return value
    }

    /// A list of texts: a JSON array, or in CSV a cell holding one (`["a","b"]`; empty for none).
    package func list(_ field: String) throws(ImportError) -> [String] {
        var value = self[field] ?? .array([])
        if case .string(let text) = value, fromCSV {
            if text.isEmpty { return [] }
            var reader = JSONReader(Array(text.utf8))
            do { value = try reader.document() } catch { throw problem(field, "a list is written as a JSON array, e.g. [\"a\",\"b\"]") }
        }
        guard case .array(let items) = value else { throw problem(field, "must be a list of texts") }
        var texts: [String] = []
        for item in items {
            guard case .string(let text) = item else { throw problem(field, "must be a list of texts") }
            texts.append(text)
        }
        return texts
    }

    /// `body`'s result; an error it throws is reported at this row.
    package func checking<T>(_ body: () throws -> T) throws(ImportError) -> T {
        do { return try body() } catch let error as ImportError { throw error } catch {
            throw ImportError(line: line, field: nil, reason: Self.reason(error))
        }
    }

    /// An error's words without the value echoed back twice.
    static func reason(_ error: any Error) -> String {
        if case .invalidValue(let option, let value, let reason) = error as? AppError {
            return "invalid value '\(AppError.shown(value, limit: TextInput.quotedLength))' for \(option): \(reason)"
        }
        return "\(error)"
    }
}

/// Why an import stopped: the line of the file, the field when one is to
/// blame, and what is wrong. Nothing was written.
///
/// `ImportError(line: 3, field: "position", reason: "must be a whole number").description`
/// // "line 3, field 'position': must be a whole number; nothing was imported"
package struct ImportError: Error, CustomStringConvertible {
    package let line: Int
    package let field: String?
    package let reason: String

    package init(line: Int, field: String?, reason: String) {
        self.line = line
        self.field = field
        self.reason = reason
    }

    package var description: String {
        let place = line > 0 ? "line \(line)" : "the file"
        return "\(place)\(field.map { ", field '\(AppError.shown($0, limit: 40))'" } ?? ""): \(reason); nothing was imported"
    }
}
