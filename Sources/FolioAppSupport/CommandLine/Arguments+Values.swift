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
            if scalar == "." { points += 1 } else if digits.contains(scalar) { if points == 0 { whole += 1 } else { fraction += 1 } } else { return false }
        }
        return points <= 1 && whole + fraction > 0
    }

    /// Removes option `name` and reads it as an ISO 8601 date (see
    /// ``parseDate(_:)``: `2025-03-14T10:20:00Z`, seconds and their fraction
    /// optional, a zone required with a time, or a bare `2025-03-14`).
    ///
    /// ```swift
    /// var args = Arguments(["--date", "2025-03-14"])
    /// let date = try args.dateOption("--date")   // 2025-03-14 00:00:00 UTC
    /// ```
    public mutating func dateOption(_ name: String) throws -> Date? {
        guard let text = try option(name) else { return nil }
        guard let date = Self.parseDate(text) else {
            throw AppError.invalidValue(option: name, value: text, reason: "not an ISO 8601 date such as 2025-03-14T10:20:00Z (a time needs its zone: Z for UTC)")
        }
        return date
    }

    /// Parses an ISO 8601 date (`2025-03-14`, midnight UTC) or date-time
    /// with a zone (`2025-03-14T10:20Z`, `…T10:20:45Z`, `…T10:20:45.250+02:00`);
    /// nil for anything else. The whole text must match: Foundation's parser
    /// alone reads a leading date out of `2025-03-14T10:20` or `…Zjunk`, which
    /// would cut the time to midnight or drop a typo without a word.
    ///
    /// `Arguments.parseDate("2025-03-14T10:20:00Z")` is March 14th 2025, 10:20 UTC.
    public static func parseDate(_ text: String) -> Date? {
        // Date, then optionally `T`, hours and minutes, seconds, a fraction, and a zone (required with a time).
        let shape = #"(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2})(:\d{2})?(\.\d{1,9})?(Z|[+-]\d{2}:\d{2}))?"#
        guard let regex = try? Regex(shape), let match = try? regex.wholeMatch(in: text) else { return nil }
        guard let time = match.output[2].substring else {
            return try? Date(text, strategy: Date.ISO8601FormatStyle().year().month().day())
        }
        let seconds = match.output[3].substring.map(String.init) ?? ":00"
        let fraction = match.output[4].substring.map(String.init) ?? ""
        let zone = match.output[5].substring.map(String.init) ?? ""
        let full = "\(match.output[1].substring ?? "")T\(time)\(seconds)\(fraction)\(zone)"
        let style = fraction.isEmpty ? Date.ISO8601FormatStyle.iso8601 : Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        return try? Date(full, strategy: style)
    }

    private static func plain(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
