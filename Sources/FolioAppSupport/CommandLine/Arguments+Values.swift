import Foundation

extension Arguments {
    /// Removes option `name` and reads it as a file path, which must not be empty.
    ///
    /// An empty value (`--store ""`, often an unset shell variable) is a
    /// ``AppError/usage(message:)`` (exit 2), never taken to mean the default.
    ///
    /// ```swift
    /// var args = Arguments(["--store", ""])
    /// try args.pathOption("--store")   // throws: --store needs a path; it was given an empty one
    /// ```
    public mutating func pathOption(_ name: String) throws -> String? {
        guard let text = try option(name) else { return nil }
        guard !text.isEmpty else { throw AppError.usage(message: "\(name) needs a path; it was given an empty one") }
        return text
    }

    /// Removes option `name` and reads it as a number within `range`.
    ///
    /// A value that is not a number, or outside the range, is an
    /// ``AppError/invalidValue(option:value:reason:)`` (exit 1).
    ///
    /// ```swift
    /// var args = Arguments(["--latitude", "95"])
    /// try args.doubleOption("--latitude", in: -90...90)   // throws: must be between -90 and 90
    /// ```
    public mutating func doubleOption(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let text = try option(name) else { return nil }
        return try Self.decimal(text, named: name, in: range)
    }

    /// Reads `text` as a plain decimal number (`-122.4194`, `+12`, `.5`)
    /// within `range`; hexadecimal, exponents, `inf` and `nan` are refused
    /// (Swift's `Double("0x10")` would read 16). `name` is what the message
    /// calls the value: an option, or a form's field.
    ///
    /// ```swift
    /// try Arguments.decimal("0x10", named: "Latitude", in: -90...90)   // throws: not a number
    /// ```
    public static func decimal(_ text: String, named name: String, in range: ClosedRange<Double>) throws -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard isPlainDecimal(trimmed), let value = Double(trimmed), value.isFinite else {
            throw AppError.invalidValue(option: name, value: text, reason: "not a number")
        }
        guard range.contains(value) else {
            let low = plain(range.lowerBound), high = plain(range.upperBound)
            throw AppError.invalidValue(option: name, value: text, reason: "must be between \(low) and \(high)")
        }
        return value
    }

    /// An optional sign, digits, and an optional fraction: nothing else.
    private static func isPlainDecimal(_ text: String) -> Bool {
        var scalars = Substring(text).unicodeScalars[...]
        if let sign = scalars.first, sign == "+" || sign == "-" { scalars = scalars.dropFirst() }
        let digits = CharacterSet(charactersIn: "0123456789")
        var whole = 0, fraction = 0, points = 0
        for scalar in scalars {
            if scalar == "." {
                points += 1
            } else if digits.contains(scalar) {
                if points == 0 { whole += 1 } else { fraction += 1 }
            } else {
                return false
            }
        }
        return points <= 1 && whole + fraction > 0
    }

    /// Removes option `name` and reads it as an ISO 8601 date (see
    /// ``ISODate/parse(_:)``: `2025-03-14T10:20:00Z`, seconds and their
    /// milliseconds optional, a zone required with a time, or a bare
    /// `2025-03-14`). A date that names no real instant (`2024-02-30`,
    /// `T24:00`, `:60`) is an ``AppError/invalidValue(option:value:reason:)`` saying which part is wrong.
    ///
    /// ```swift
    /// var args = Arguments(["--date", "2025-03-14"])
    /// let date = try args.dateOption("--date")   // 2025-03-14 00:00:00 UTC
    /// ```
    public mutating func dateOption(_ name: String) throws -> Date? {
        guard let text = try option(name) else { return nil }
        return try Self.date(text, named: name)
    }

    /// Reads `text` as a date (``ISODate/parse(_:)``); `name` is what the
    /// message calls it: an option, or a form's field.
    ///
    /// ```swift
    /// try Arguments.date("2024-02-30", named: "Date")   // throws: Date: day must be 01 to 29 in February 2024
    /// ```
    public static func date(_ text: String, named name: String) throws -> Date {
        do {
            return try ISODate.parse(text)
        } catch {
            throw AppError.invalidValue(option: name, value: text, reason: error.reason)
        }
    }

    /// Parses an ISO 8601 date as ``ISODate/parse(_:)`` does; nil for anything else.
    ///
    /// `Arguments.parseDate("2025-03-14T10:20:00Z")` is March 14th 2025, 10:20 UTC.
    public static func parseDate(_ text: String) -> Date? {
        try? ISODate.parse(text)
    }

    private static func plain(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
