import FolioChanges
import FolioTableTestSupport
import Testing

/// The longest increasing subsequence against brute force.
@Suite struct LongestIncreasingSubsequenceTests {
    @Test func isLongestAndIncreasing() {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed)
        for _ in 0..<300 {
            let values = (0..<Int.random(in: 0..<9, using: &random)).map { _ in Int.random(in: 0..<6, using: &random) }
            let positions = longestIncreasingSubsequence(values)
            #expect(positions == positions.sorted())
            #expect(zip(positions, positions.dropFirst()).allSatisfy { values[$0] < values[$1] })
            // Brute force over every subset.
            var best = 0
            for mask in 0..<(1 << values.count) {
                let picked = values.indices.filter { mask & (1 << $0) != 0 }.map { values[$0] }
                if zip(picked, picked.dropFirst()).allSatisfy({ $0 < $1 }) { best = max(best, picked.count) }
            }
            #expect(positions.count == best, "\(values)")
        }
        #expect(longestIncreasingSubsequence([3, 1, 2, 5, 4]) == [1, 2, 4])
    }
}
