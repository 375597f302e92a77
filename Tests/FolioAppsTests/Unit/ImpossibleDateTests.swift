import FolioAppSupport
import FolioTerminal
import FolioTestSupport
import Foundation
import MyLocationsApp
import Testing

/// Finding 1: a date that names no real instant is refused, on the command
/// line and in the form, saying which part is wrong; a fraction of a second
/// is kept (to the millisecond) or refused, never dropped.
@MainActor
@Suite struct ImpossibleDateTests {
    @Test(arguments: [
        ("2024-02-30T00:00:00Z", "day must be 01 to 29 in February 2024"),
        ("2023-02-29", "day must be 01 to 28 in February 2023"),
        ("2025-04-31", "day must be 01 to 30 in April 2025"),
        ("2025-01-00", "day must be 01 to 31"),
        ("2025-13-01", "month must be 01 to 12"),
        ("2025-00-10", "month must be 01 to 12"),
        ("0000-01-01", "year must be 0001 to 9999"),
        ("2025-03-14T24:00:00Z", "hour must be 00 to 23"),
        ("2025-03-14T10:60Z", "minute must be 00 to 59"),
        ("2025-03-14T10:20:60Z", "second must be 00 to 59"),
        ("2025-03-14T10:20:00+24:00", "a zone must be"),
        ("2025-03-14T10:20:00.1234Z", "at most 3 digits"),
    ])
    func anImpossiblePartIsRefusedByName(text: String, reason: String) {
        #expect(throws: ISODate.Problem.self) { try ISODate.parse(text) }
        do {
            _ = try Arguments.date(text, named: "--date")
            Issue.record("\(text) was read")
        } catch let error as AppError {
            #expect(error.description.contains("--date") && error.description.contains(reason), "\(error)")
        } catch {
            Issue.record("\(error)")
        }
    }

    /// Every real instant reads back as written (to the millisecond) and as
    /// the same instant an independent count of days gives; bumping any part
    /// one past its largest value is refused.
    @Test func everyRealInstantReadsBackAsWrittenAndOnePastIsRefused() throws {
        let seed = StoreSplitMix64.seedFromEnvironment()
        print("ImpossibleDateTests seed: \(seed) (FOLIO_SEED=\(seed) replays it)")
        var rng = StoreSplitMix64(seed: seed)
        for _ in 0..<2000 {
            let year = Int.random(in: 1...9999, using: &rng), month = Int.random(in: 1...12, using: &rng)
            let days = Self.days(month, year)
            let day = Int.random(in: 1...days, using: &rng), hour = Int.random(in: 0...23, using: &rng)
            let minute = Int.random(in: 0...59, using: &rng), second = Int.random(in: 0...59, using: &rng)
            let millis = Bool.random(using: &rng) ? Int.random(in: 1...999, using: &rng) : 0
            let parts = [year, month, day, hour, minute, second]
            let text = Self.text(parts, millis)
            let date = try ISODate.parse(text)
            let expected =
                Double(Self.daysSince1970(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second) + Double(millis) / 1000
            #expect(abs(date.timeIntervalSince1970 - expected) < 0.0005, "seed \(seed): \(text)")
            #expect(ISODate.text(date) == text, "seed \(seed): \(text) shows as \(ISODate.text(date))")
            let largest = [9999, 12, days, 23, 59, 59]
            for index in 1..<parts.count {  // a year past 9999 has five digits: not a date at all
                var bumped = parts
                bumped[index] = largest[index] + 1
                #expect(throws: ISODate.Problem.self, "seed \(seed): \(Self.text(bumped, millis))") {
                    try ISODate.parse(Self.text(bumped, millis))
                }
            }
        }
    }

    static func text(_ parts: [Int], _ millis: Int) -> String {
        let fraction = millis == 0 ? "" : String(format: ".%03d", millis)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d", parts[0], parts[1], parts[2], parts[3], parts[4], parts[5]) + fraction + "Z"
    }

    static func days(_ month: Int, _ year: Int) -> Int {
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date, counted without Foundation.
    static func daysSince1970(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
