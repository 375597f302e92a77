import FolioTestSupport
import Foundation
import Testing

@testable import FolioStore

/// The package's one JSON reader reads what Foundation writes, and what
/// Foundation reads, as Foundation does; numbers keep their text, and
/// malformed text is refused by line, never trapped on.
@Suite struct JSONReaderTests {
    // No U+FEFF: Foundation's reader drops one that starts a run of plain text in a string.
    static let pieces = [
        "", "a", "Mars", "\"", "\\", "/", "\n", "\r\n", "\t", "\u{0}", "\u{1f}", "\u{7f}", "é", "漢字", "😀", "👩‍🚀", "\u{2028}", "\u{200B}",
        "\\u0041",
    ]
    static let numbers = [
        "0", "-0", "1", "-1", "42", "9007199254740993", "-9223372036854775808", "9223372036854775807", "18446744073709551615",
        "0.1", "-2.5", "1e3", "1E-7", "6.02214076e+23", "4.9e-324", "1.7976931348623157e308", "123456789.125",
    ]

    static func text(_ rng: inout StoreSplitMix64) -> String {
        (0..<Int.random(in: 0..<5, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }

    /// A random value as Foundation holds it.
    static func foundationValue(_ rng: inout StoreSplitMix64, depth: Int = 0) -> Any {
        switch Int.random(in: 0..<(depth < 4 ? 8 : 5), using: &rng) {
        case 0: return NSNull()
        case 1: return Bool.random(using: &rng)
        case 2: return Int64.random(in: .min ... .max, using: &rng)
        case 3: return Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF) * (Bool.random(using: &rng) ? 1 : -1)
        case 4: return text(&rng)
        case 5: return (0..<Int.random(in: 0..<4, using: &rng)).map { _ in foundationValue(&rng, depth: depth + 1) }
        default:
            var object: [String: Any] = [:]
            for _ in 0..<Int.random(in: 0..<4, using: &rng) { object[text(&rng)] = foundationValue(&rng, depth: depth + 1) }
            return object
        }
    }

    /// Whether the reader's node is `value`: exactly as Foundation was given
    /// it (`Int64`, `Double`), or as Foundation read it (an `NSNumber`,
    /// whose decimal reading may be off in the last bits).
    static func same(_ node: JSONNode, _ value: Any) -> Bool {
        switch node {
        case .null: return value is NSNull
        case .bool(let b): return (value as? Bool) == b
        case .number(let n):
            if type(of: value) == Int64.self { return n.int64 == value as? Int64 }
            if type(of: value) == Double.self { return n.double == value as? Double }
            guard let number = value as? NSNumber, let double = n.double else { return false }
            if let exact = n.int64, number.int64Value == exact { return true }
            return abs(double - number.doubleValue) <= abs(double) * 1e-15
        case .string(let s): return (value as? String) == s
        case .array(let items):
            guard let array = value as? [Any], array.count == items.count else { return false }
            return zip(items, array).allSatisfy { same($0, $1) }
        case .object(let members):
            guard let object = value as? [String: Any], object.count == members.count else { return false }
            return members.allSatisfy { member in object[member.key].map { same(member.value, $0) } ?? false }
        }
    }

    /// A random document written by hand: spaces, escapes and number forms Foundation's writer never makes.
    static func handWritten(_ rng: inout StoreSplitMix64, depth: Int = 0) -> String {
        func space() -> String { ["", " ", "\n", "\t", "\r\n "][Int.random(in: 0..<5, using: &rng)] }
        func escaped(_ scalar: Unicode.Scalar) -> String {
            String(scalar).utf16.map { String(format: "\\u%04X", $0) }.joined()
        }
        func string(_ raw: String) -> String {
            var out = "\""
            for scalar in raw.unicodeScalars {
                switch (scalar, Int.random(in: 0..<3, using: &rng)) {
                case ("\"", _): out += "\\\""
                case ("\\", _): out += "\\\\"
                case (_, 0): out += escaped(scalar)
                case (_, _) where scalar.value < 0x20: out += escaped(scalar)
                case ("/", 1): out += "\\/"
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        switch Int.random(in: 0..<(depth < 4 ? 7 : 5), using: &rng) {
        case 0: return ["null", "true", "false"][Int.random(in: 0..<3, using: &rng)]
        case 1, 2: return numbers.randomElement(using: &rng)!
        case 3, 4: return string(text(&rng))
        case 5:
            let items = (0..<Int.random(in: 0..<4, using: &rng)).map { _ in space() + handWritten(&rng, depth: depth + 1) + space() }
            return "[" + items.joined(separator: ",") + "]"
        default:
            var keys = Set<String>()
            var members: [String] = []
            for _ in 0..<Int.random(in: 0..<4, using: &rng) {
                // Unique as read: two spellings of one key would be the same key.
                let key = text(&rng)
                guard keys.insert(key).inserted else { continue }
                members.append(space() + string(key) + space() + ":" + space() + handWritten(&rng, depth: depth + 1))
            }
            return "{" + members.joined(separator: ",") + space() + "}"
        }
    }

    @Test func readsWhatFoundationWritesAndReadsWhatFoundationReads() throws {
        let seed = StoreSplitMix64.seedFromEnvironment()
        print("JSONReaderTests seed: \(seed) (FOLIO_SEED=\(seed) replays it)")
        var rng = StoreSplitMix64(seed: seed)
        for round in 0..<400 {
            let value = Self.foundationValue(&rng)
            let data = try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
            var reader = JSONReader(Array(data))
            #expect(Self.same(try reader.document(), value), "round \(round), seed \(seed): \(String(decoding: data, as: UTF8.self))")

            let text = Self.handWritten(&rng)
            let foundation = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            var handReader = JSONReader(Array(text.utf8))
            #expect(Self.same(try handReader.document(), foundation), "round \(round), seed \(seed): \(text)")
        }
    }

    @Test func numbersKeepTheirText() throws {
        var reader = JSONReader(Array("[\(Self.numbers.joined(separator: ", ")), 1e400]".utf8))
        guard case .array(let items) = try reader.document() else { Issue.record("not an array"); return }
        #expect(items.compactMap(\.number?.text) == Self.numbers + ["1e400"])
        #expect(items[5].number?.int64 == 9_007_199_254_740_993)
        #expect(items[6].number?.int64 == .min)
        #expect(items[8].number?.int64 == nil && items[8].number?.uint64 == .max)
        #expect(items[9].number?.int64 == nil && items[9].number?.double == 0.1)
        #expect(items[1].number?.double?.sign == .minus)
        #expect(items.last?.number?.double == nil, "beyond a double: no value rather than infinity")
    }

    /// Keys found among names as bytes or, escaped, as text; any other is handed back.
    @Test func keysAreFoundAmongNames() throws {
        var reader = JSONReader(Array(#"{"name": 1, "n\u0061me" : 2, "pos": 3, "na": 4, "names": 5}"#.utf8))
        let names = [Array("id".utf8), Array("name".utf8)]
        var found: [String] = []
        _ = try reader.beginObject()
        repeat {
            switch try reader.key(in: names) {
            case .success(let index): found.append("#\(index)")
            case .failure(let unknown): found.append(unknown.key)
            }
            _ = try reader.value(depth: 1)
        } while try reader.nextMember()
        #expect(found == ["#1", "#1", "pos", "na", "names"])
        var noColon = JSONReader(Array(#"{"name" 1}"#.utf8))
        _ = try noColon.beginObject()
        #expect(throws: JSONReader.Problem.self) { try noColon.key(in: names) }
    }

    @Test func malformedTextIsRefusedByLine() {
        func problem(_ text: String) -> String {
            var reader = JSONReader(Array(text.utf8))
            do { _ = try reader.document() } catch { return error.description }
            return ""
        }
        let refused = [
            ("", "line 1: the text ends"), ("[1,\n2,\n]", "line 3: not a JSON value"),
            ("{\"a\":1,\n\"a\":2}", "line 2: the key \"a\" is given twice"),
            ("01", "line 1: a number has a leading zero"), ("1.", "line 1: a number needs digits after '.'"),
            ("1e", "line 1: a number needs digits"),
            ("+1", "line 1: not a JSON value"), ("\"\\x\"", "line 1: an unknown escape"), ("\"\\ud800\"", "line 1: a \\u escape is half"),
            ("\"a\nb\"", "line 1: a control character"), ("\"open", "line 1: a string is not closed"), ("[] x", "line 1: text after"),
            ("{\"a\" 1}", "line 1: expected ':'"), ("{1:2}", "line 1: expected a key"), ("tru", "line 1: not a JSON value"),
            (String(repeating: "[", count: 100_000), "line 1: nested more than 64 deep"),
        ]
        for (text, expected) in refused {
            #expect(problem(text).hasPrefix(expected), "\(text.prefix(20).debugDescription): \(problem(text))")
        }
        var notUTF8 = JSONReader(Array("[\n\"".utf8) + [0xFF] + Array("\"]".utf8))
        #expect(throws: JSONReader.Problem.self) { try notUTF8.document() }
    }
}
