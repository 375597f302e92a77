import FolioTerminal
import Foundation

/// A JSON value whose objects keep their keys in the order given, so that
/// `list --json` prints `id` first and the fields as the app names them.
///
/// ```swift
/// JSONValue.object([("id", .string("1")), ("name", .string("Mars"))]).text
/// // {"id":"1","name":"Mars"}
/// ```
public indirect enum JSONValue: Equatable, Sendable {
    /// A string, escaped on output (control characters as `\u00XX`).
    case string(String)
    /// A number; integral values print without a fraction.
    case number(Double)
    /// An integer, printed exactly.
    case integer(Int64)
    /// true or false.
    case bool(Bool)
    /// null.
    case null
    /// An array, in order.
    case array([JSONValue])
    /// An object, keys in the order given.
    case object([(String, JSONValue)])

    /// The compact JSON text.
    ///
    /// - Complexity: O(n) in the size of the value.
    public var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .string(let value): Self.writeString(value, to: &out)
        case .number(let value):
            if value == value.rounded(), abs(value) < 1e15 { out += String(Int64(value)) } else { out += "\(value)" }
        case .integer(let value): out += String(value)
        case .bool(let value): out += value ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let pairs):
            out += "{"
            for (index, pair) in pairs.enumerated() {
                if index > 0 { out += "," }
                Self.writeString(pair.0, to: &out)
                out += ":"
                pair.1.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || DisplayText.isBidiMark(scalar):
                // Controls and bidi marks escaped: the JSON stays exact and prints harmlessly.
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// Equal when the JSON texts are equal (key order counts).
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.text == rhs.text
    }
}
