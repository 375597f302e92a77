import Foundation
import Testing

@testable import FolioAppSupport

/// `list --json` gives every string back exactly, and prints as it is: what
/// a terminal would not simply draw is a `\uXXXX` escape, so the console's
/// sanitiser has nothing left to change in it.
@Suite struct JSONEscapingTests {
    /// Every Unicode scalar, in strings of 4,096 each, as a key and a value.
    @Test func everyScalarRoundTripsAndPassesTheSanitiserUnchanged() throws {
        let scalars = (0...0x10FFFF).compactMap(Unicode.Scalar.init)
        for start in stride(from: 0, to: scalars.count, by: 4096) {
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars[start..<min(start + 4096, scalars.count)])
            let string = String(text)
            let json = JSONValue.object([(string, .array([.string(string)]))]).text
            let from = "the 4,096 scalars from U+" + String(scalars[start].value, radix: 16, uppercase: true)
            let printsAsItIs = TextSanitizer.visible(json) == json && Console.safe(json) == json
            #expect(printsAsItIs, "\(from): the sanitiser changed the JSON")
            let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: [String]]
            let exact = decoded?.keys.first == string && decoded?.values.first == [string]
            #expect(exact, "\(from): the JSON did not give the string back")
        }
    }

    @Test func separatorsAndFormatCharactersAreEscapedJoinersAreNot() {
        #expect(
            JSONValue.string("a\u{2028}b\u{2029}c\u{85}d\u{9D}e\u{AD}f\u{FEFF}").text
                == #""a\u2028b\u2029c\u0085d\u009de\u00adf\ufeff""#)
        #expect(JSONValue.string("\u{E0041}").text == #""\udb40\udc41""#)
        #expect(JSONValue.string("👩\u{200D}🚀").text == "\"👩\u{200D}🚀\"")
    }

    @Test func numbersJSONCannotHoldAreNull() throws {
        let json = JSONValue.array([.number(.nan), .number(.infinity), .number(-.infinity), .number(2.5)]).text
        #expect(json == "[null,null,null,2.5]")
        #expect(try JSONSerialization.jsonObject(with: Data(json.utf8)) is [Any])
    }
}
