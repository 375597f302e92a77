import FolioResults
import FolioTestSupport
import Testing

@Suite struct RadixSortTests {
    @Test func sortsAsTheStandardSortDoes() {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed)
        // Sizes on both sides of the cut-over; values of a few bits, of many,
        // sharing high bits, with the top bit, and signed ones of both signs.
        for round in 0..<60 {
            let count = [0, 1, 511, 512, 513, 5_000, 40_000][round % 7]
            let range: ClosedRange<UInt64> = [0...3, 0...2_000_000, (1 << 62)...((1 << 62) + 4_095), 0...UInt64.max][round % 4]
            var values = (0..<count).map { _ in UInt64.random(in: range, using: &random) }
            let expected = values.sorted()
            radixSort(&values)
            #expect(values == expected, "round \(round), \(count) values in \(range)")
            var signed = (0..<count).map { _ in Int64.random(in: -1_000_000...Int64.max, using: &random) }
            let expectedSigned = signed.sorted()
            radixSort(&signed)
            #expect(signed == expectedSigned, "round \(round), \(count) signed values")
            // Records by distinct keys, as the engine's report sorts its paths.
            var records = Array(Set(values)).map { (key: $0, payload: $0 &* 31) }
            let expectedRecords = records.sorted { $0.key < $1.key }
            radixSort(&records) { $0.key }
            #expect(records.map(\.key) == expectedRecords.map(\.key) && records.allSatisfy { $0.payload == $0.key &* 31 }, "round \(round)")
        }
    }
}
