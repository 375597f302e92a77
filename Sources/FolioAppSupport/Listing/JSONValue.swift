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
    /// A string, escaped on output: what a terminal would not draw as `\uXXXX`
    /// (controls, separators, format characters), exactly.
    case string(String)
    /// A number; integral values print without a fraction, NaN and infinities as null.
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
            // JSON has no NaN or infinity: such a value is null.
            if !value.isFinite {
                out += "null"
            } else if value == value.rounded(), abs(value) < 1e15 {
                out += String(Int64(value))
            } else {
                out += "\(value)"
            }
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
            case _ where isEscaped(scalar):
                // As UTF-16 code units, a pair for one beyond the BMP: exact for any reader.
                for unit in String(scalar).utf16 { out += "\\u" + hex4(unit) }
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// Whether a string's character is written as `\uXXXX`: everything a
    /// terminal does not simply draw (controls, C1, line and paragraph
    /// separators, format characters such as bidi marks, unassigned code
    /// points; not the joiners of emoji and scripts). What is left is text the console's
    /// sanitiser passes unchanged, so the JSON prints as it is and any
    /// reader gets every string back exactly.
    static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        // Joiners stay: emoji sequences and scripts that need them read as they are.
        if scalar == "\u{200C}" || scalar == "\u{200D}" { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .surrogate: return true
        default: return scalar.properties.isNoncharacterCodePoint || DisplayText.isBidiMark(scalar)
        }
    }

    private static func hex4(_ unit: UInt16) -> String {
        let digits = String(unit, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// Equal when the JSON texts are equal (key order counts).
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.text == rhs.text
    }
}
