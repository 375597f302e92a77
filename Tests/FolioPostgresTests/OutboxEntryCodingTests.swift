import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioPostgres

/// The outbox entry's own JSON writer and reader speak the JSON that
/// Foundation's coders wrote before them: every entry reads back exactly,
/// whichever wrote it, and malformed text is refused, never trapped on.
@Suite struct OutboxEntryCodingTests {
    static let awkward = [
        "", "plain", "quote \" and backslash \\", "slash / and \u{7f}", "tab\tnew\nline\r", "\u{0}\u{1}\u{1f}", "é ü 漢字", "😀 👩‍👩‍👧",
        "\\u0041 is not an escape here", "{\"looks\": [\"like json\"]}",
    ]

    static func value(_ rng: inout StoreSplitMix64) -> StoreValue {
        switch Int.random(in: 0..<9, using: &rng) {
        case 0: .null
        case 1: .integer(Int64.random(in: .min ... .max, using: &rng))
        case 2: .integer([0, -1, .min, .max][Int.random(in: 0..<4, using: &rng)])
        case 3: .real(Double(bitPattern: rng.next()))
        case 4:
            .real(
                [0.1, -0.0, .nan, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 5][
                    Int.random(in: 0..<8, using: &rng)])
        case 5, 6: .text(awkward[Int.random(in: 0..<awkward.count, using: &rng)] + String(Int.random(in: 0..<100, using: &rng)))
        case 7: .blob(Data((0..<Int.random(in: 0..<20, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }))
        default: .text(String(decoding: (0..<8).map { _ in UInt8.random(in: 0...127, using: &rng) }, as: UTF8.self))
        }
    }

    static func entry(_ rng: inout StoreSplitMix64) -> OutboxEntry {
        func name() -> String { awkward[Int.random(in: 0..<awkward.count, using: &rng)] }
        func id() -> Int64 { Int64.random(in: 1...Int64.max, using: &rng) }
        func some<T>(_ make: () -> T) -> [T] { (0..<Int.random(in: 0..<4, using: &rng)).map { _ in make() } }
        var e = OutboxEntry()
        e.inserts = some {
            var values: [String: ReplicaValue] = [:]
            for _ in 0..<Int.random(in: 0..<5, using: &rng) { values[name()] = ReplicaValue(value(&rng)) }
            return .init(entity: name(), id: id(), values: values)
        }
        e.updates = some {
            let keys = some(name)
            return .init(
                entity: name(), id: id(), keys: keys, new: keys.map { _ in ReplicaValue(value(&rng)) },
                old: keys.map { _ in ReplicaValue(value(&rng)) }, seen: Bool.random(using: &rng) ? id() : nil)
        }
        e.deletes = some { .init(entity: name(), id: id(), seen: Bool.random(using: &rng) ? id() : nil) }
        e.adds = some { .init(entity: name(), property: name(), owner: id(), member: id()) }
        e.removes = some { .init(entity: name(), property: name(), owner: id(), member: id()) }
        e.orders = some { .init(entity: name(), property: name(), owner: id(), members: some(id)) }
        e.history = name()
        return e
    }

    @Test func everyEntryReadsBackWhicheverCoderWroteIt() throws {
        let seed = StoreSplitMix64.seedFromEnvironment()
        print("OutboxEntryCodingTests seed: \(seed) (FOLIO_SEED=\(seed) replays it)")
        var rng = StoreSplitMix64(seed: seed)
        for round in 0..<500 {
            let entry = Self.entry(&rng)
            let mine = entry.encoded()
            // Foundation reads what the writer wrote, and the reader reads what Foundation wrote: the same entry.
            let foundationRead = try JSONDecoder().decode(OutboxEntry.self, from: Data(mine.utf8))
            let foundationText = String(decoding: try JSONEncoder().encode(entry), as: UTF8.self)
            #expect(foundationRead.encoded() == mine, "round \(round), seed \(seed)")
            #expect(try OutboxEntry.decode(foundationText).encoded() == mine, "round \(round), seed \(seed)")
            #expect(try OutboxEntry.decode(mine).encoded() == mine, "round \(round), seed \(seed)")
        }
    }

    @Test func aValueKeepsItsExactBits() throws {
        for v in [Double.nan, -0.0, 0.1, .leastNonzeroMagnitude, -.infinity, 123_456_789.125] {
            var entry = OutboxEntry()
            entry.updates = [.init(entity: "E", id: 1, keys: ["k"], new: [ReplicaValue(.real(v))], old: [ReplicaValue(.null)])]
            guard case .real(let back)? = try OutboxEntry.decode(entry.encoded()).updates.first?.new.first?.value else {
                Issue.record("\(v) did not read back as a real")
                continue
            }
            #expect(back.bitPattern == v.bitPattern, "\(v)")
        }
    }

    @Test func malformedTextIsRefused() {
        let valid = OutboxEntry().encoded()
        let bad = [
            "", "{", "[]", "null", valid + "x", String(valid.dropLast()), valid.replacingOccurrences(of: "\"history\":\"\"", with: ""),
            "{\"inserts\":[{\"entity\":\"E\",\"id\":\"1\",\"values\":{}}],\"updates\":[],\"deletes\":[],\"adds\":[],\"removes\":[],\"orders\":[],\"history\":\"\"}",
            valid.replacingOccurrences(of: "\"history\":\"\"", with: "\"history\":\"\\ud800\""),
            valid.replacingOccurrences(of: "\"history\":\"\"", with: "\"history\":\"\\x\""),
            String(repeating: "[", count: 10_000),
        ]
        for text in bad {
            #expect(throws: (any Error).self, "\(text.prefix(80))") { _ = try OutboxEntry.decode(text) }
        }
    }
}
