import Foundation
import Testing

@testable import FolioAppSupport

@Suite struct ArgumentsTests {
    @Test func optionsFlagsAndPositionalsInAnyOrder() throws {
        var args = Arguments(["--store", "/tmp/x", "add", "--json", "Pluto"], valueOptions: ["--store"])
        let verb = args.nextPositional()
        let store = try args.option("--store")
        let json = args.flag("--json")
        let jsonAgain = args.flag("--json")
        let name = try args.positional("NAME")
        #expect(verb == "add")
        #expect(store == "/tmp/x")
        #expect(json && !jsonAgain)
        #expect(name == "Pluto")
        try args.finish()
    }

    @Test func valueOptionsAreNotTakenForPositionals() {
        var args = Arguments(["--store", "planets.sqlite", "planets"], valueOptions: ["--store"])
        let app = args.nextPositional()
        #expect(app == "planets")
    }

    @Test func equalsFormAndNegativeValues() throws {
        var args = Arguments(["--latitude=-33.5", "--longitude", "-122.25"])
        let latitude = try args.doubleOption("--latitude", in: -90...90)
        let longitude = try args.doubleOption("--longitude", in: -180...180)
        #expect(latitude == -33.5)
        #expect(longitude == -122.25)
        try args.finish()
    }

    @Test func outOfRangeAndNonNumbersAreInvalidValues() {
        var args = Arguments(["--latitude", "95", "--longitude", "east"])
        #expect(throws: AppError.invalidValue(option: "--latitude", value: "95", reason: "must be between -90 and 90")) {
            try args.doubleOption("--latitude", in: -90...90)
        }
        #expect(throws: AppError.invalidValue(option: "--longitude", value: "east", reason: "not a number")) {
            try args.doubleOption("--longitude", in: -180...180)
        }
        #expect(AppError.invalidValue(option: "x", value: "y", reason: "z").exitStatus == .failure)
    }

    @Test func missingValueUnknownOptionAndLeftoversAreUsageErrors() {
        var missing = Arguments(["--name"])
        #expect(throws: AppError.usage(message: "missing value for --name")) { try missing.option("--name") }
        #expect(throws: AppError.usage(message: "unknown option '--bogus'")) { try Arguments(["--bogus"]).finish() }
        #expect(throws: AppError.usage(message: "unexpected argument 'extra'")) { try Arguments(["extra"]).finish() }
        var empty = Arguments([])
        #expect(throws: AppError.usage(message: "missing NAME")) { try empty.positional("NAME") }
        #expect(AppError.usage(message: "x").exitStatus == .usage)
    }

    @Test func doubleDashEndsOptions() throws {
        var args = Arguments(["add", "--", "--weird name"])
        let verb = args.nextPositional()
        let name = try args.positional("NAME")
        #expect(verb == "add")
        #expect(name == "--weird name")
        try args.finish()
    }

    @Test func helpIsSeenBeforeDoubleDashOnly() {
        #expect(Arguments(["planets", "--help"]).wantsHelp)
        #expect(Arguments(["-h"]).wantsHelp)
        #expect(!Arguments(["add", "--", "--help"]).wantsHelp)
    }

    @Test func isoDates() throws {
        var args = Arguments(["--date", "2025-03-14T10:20:00Z"])
        let parsed = try args.dateOption("--date")
        let date = try #require(parsed)
        #expect(date.timeIntervalSince1970 == 1_741_947_600)
        #expect(Arguments.parseDate("2025-03-14") != nil)
        #expect(Arguments.parseDate("2025-03-14T10:20:00.250Z") != nil)
        #expect(Arguments.parseDate("yesterday") == nil)
    }

    @Test func aDateIsReadWholeOrRefused() {
        #expect(Arguments.parseDate("2025-03-14T10:20:45Z") == Date(timeIntervalSince1970: 1_741_947_645))
        #expect(Arguments.parseDate("2025-03-14T10:20Z") == Date(timeIntervalSince1970: 1_741_947_600), "to the minute")
        #expect(Arguments.parseDate("2025-03-14T10:20:45.250Z") == Date(timeIntervalSince1970: 1_741_947_645.25))
        #expect(Arguments.parseDate("2025-03-14T12:20:45+02:00") == Date(timeIntervalSince1970: 1_741_947_645))
        #expect(Arguments.parseDate("2025-03-14") == Date(timeIntervalSince1970: 1_741_910_400))
        // Foundation alone reads these as midnight, or drops the junk.
        for text in ["2025-03-14T10:20", "2025-03-14T10:20:45", "2025-03-14T10:2", "2025-03-14x", "2025-03-14T10:20:45Zd", " 2025-03-14"] {
            #expect(Arguments.parseDate(text) == nil, "\(text) is refused")
        }
    }
}
