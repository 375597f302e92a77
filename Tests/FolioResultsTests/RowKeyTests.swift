import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// A row key's lead decides most comparisons alone; it must never decide one
/// against the values, whatever their storage classes and directions.
@Suite struct RowKeyTests {
    /// Values that tie or nearly tie in their first bits: texts and blobs
    /// sharing 7-byte prefixes or padded with zero bytes, integers that one
    /// double holds alike, reals equal to integers, both zeros, NaN, infinities.
    static func value(_ random: inout ResultsRandom) -> StoreValue {
        let stems = ["", "a", "abcdefg", "abcdefgh", "abcdefg\u{0}", "abc\u{0}\u{0}", "é", "e\u{301}", "n1234567", "n1234568"]
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return .null
        case 1:
            let big: Int64 = 1 << 60
            return .integer(
                [0, 1, -1, big, big + 1, -big, -big - 1, .max, .min, Int64.random(in: -9...9, using: &random)].randomElement(
                    using: &random)!)
        case 2:
            return .real(
                [0.0, -0.0, 1.0, -1.0, 0.5, .infinity, -.infinity, .nan, Double(1 << 60), .ulpOfOne].randomElement(using: &random)!)
        case 3, 4:
            let tail = String((0..<Int.random(in: 0...2, using: &random)).map { _ in "a\u{0}z".randomElement(using: &random)! })
            return .text(stems.randomElement(using: &random)! + tail)
        default:
            return .blob(
                Data(stems.randomElement(using: &random)!.utf8)
                    + Data((0..<Int.random(in: 0...2, using: &random)).map { _ in UInt8.random(in: 0...1, using: &random) }))
        }
    }

    @Test func leadsNeverContradictTheValues() {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed)
        for _ in 0..<20_000 {
            let width = Int.random(in: 1...3, using: &random)
            let ascending = ArraySlice((0..<width).map { _ in Bool.random(using: &random) })
            let a = RowKey(ArraySlice((0..<width).map { _ in Self.value(&random) }), ascending: ascending)
            let b = RowKey(ArraySlice((0..<width).map { _ in Self.value(&random) }), ascending: ascending)
            #expect(RowKey.compare(a, b) == RowKey.compareValues(a, b), "\(a.values) vs \(b.values), ascending \(Array(ascending))")
            #expect(RowKey.compare(b, a) == RowKey.compareValues(b, a), "\(b.values) vs \(a.values), ascending \(Array(ascending))")
        }
    }
}
