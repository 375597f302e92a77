import Foundation

/// Dates as the apps read and show them: ISO 8601, checked field by field.
///
/// A date that names no real instant is refused, saying which part is
/// wrong: Foundation's parser rolls `2024-02-30` over to March 1st, reads
/// `T24:00:00` as the next midnight and `:60` as the next minute. Fractions
/// of a second are kept to the millisecond, and shown when a date has one.
///
/// ```swift
/// try ISODate.parse("2025-03-14T10:20:00.250Z")   // kept to the millisecond
/// try ISODate.parse("2024-02-30")                 // throws: day must be 01 to 29 in February 2024
/// ISODate.text(date)                              // "2025-03-14T10:20:00.250Z"
/// ```
public enum ISODate {
    /// Why a text is not a date: the reason, for a message naming the field.
    public struct Problem: Error, CustomStringConvertible {
        /// What is wrong ("day must be 01 to 29 in February 2024").
        public let reason: String
        public var description: String { reason }
    }

    /// What a date looks like, for messages.
    public static let example = "an ISO 8601 date such as 2025-03-14T10:20:00Z (a time needs its zone: Z for UTC)"

    /// Reads `2025-03-14` (midnight UTC) or a date and time with a zone
    /// (`2025-03-14T10:20Z`, `…T10:20:45Z`, `…T10:20:45.250+02:00`); the
    /// whole text must be one, every part in its range.
    public static func parse(_ text: String) throws(Problem) -> Date {
        let shape = #"(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?(?:\.(\d+))?(Z|[+-]\d{2}:\d{2}))?"#
        guard let regex = try? Regex(shape), let match = try? regex.wholeMatch(in: text) else { throw Problem(reason: "not \(example)") }
        func number(_ index: Int) -> Int? { match.output[index].substring.flatMap { Int($0) } }
        let year = number(1) ?? 0, month = number(2) ?? 0, day = number(3) ?? 0
        guard (1...9999).contains(year) else { throw Problem(reason: "year must be 0001 to 9999") }
        guard (1...12).contains(month) else { throw Problem(reason: "month must be 01 to 12") }
        let days = daysIn(month: month, year: year)
        guard (1...days).contains(day) else {
            throw Problem(reason: "day must be 01 to \(days) in \(monthNames[month - 1]) \(String(format: "%04d", year))")
        }
        let hour = number(4) ?? 0, minute = number(5) ?? 0, second = number(6) ?? 0
        guard (0...23).contains(hour) else { throw Problem(reason: "hour must be 00 to 23") }
        guard (0...59).contains(minute) else { throw Problem(reason: "minute must be 00 to 59") }
        guard (0...59).contains(second) else { throw Problem(reason: "second must be 00 to 59") }
        var milliseconds = 0
        if let fraction = match.output[7].substring {
            guard fraction.count <= 3 else {
                throw Problem(reason: "fractions of a second are kept to the millisecond: give at most 3 digits after the point")
            }
            milliseconds = Int(fraction.padding(toLength: 3, withPad: "0", startingAt: 0)) ?? 0
        }
        var offset = 0
        if let zone = match.output[8].substring, zone != "Z" {
            let parts = zone.dropFirst().split(separator: ":").compactMap { Int($0) }
            guard parts.count == 2, (0...23).contains(parts[0]), (0...59).contains(parts[1]) else {
                throw Problem(reason: "a zone must be Z or +HH:MM / -HH:MM with HH 00 to 23 and MM 00 to 59")
            }
            offset = (parts[0] * 3600 + parts[1] * 60) * (zone.hasPrefix("-") ? -1 : 1)
        }
        let seconds = daysSince1970(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + Double(milliseconds) / 1000)
    }

    /// `date` in UTC: `2025-03-14T10:20:00Z`, with milliseconds when it has any (`…00.250Z`).
    public static func text(_ date: Date) -> String {
        let total = Int((date.timeIntervalSince1970 * 1000).rounded())
        let (days, dayMillis) = total.quotientAndRemainder(dividingBy: 86_400_000)
        let day = dayMillis < 0 ? days - 1 : days, millis = dayMillis < 0 ? dayMillis + 86_400_000 : dayMillis
        let (y, m, d) = civil(daysSince1970: day)
        let clock = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", y, m, d, millis / 3_600_000, millis / 60_000 % 60, millis / 1000 % 60)
        return clock + (millis % 1000 == 0 ? "" : String(format: ".%03d", millis % 1000)) + "Z"
    }

    // Proleptic Gregorian day counts (Foundation's Gregorian calendar turns Julian before 1582).
    private static func daysSince1970(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        return era * 146_097 + yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear - 719_468
    }

    private static func civil(daysSince1970 days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfYear - (153 * mp + 2) / 5 + 1)
    }

    private static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August",
        "September", "October", "November", "December",
    ]

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
