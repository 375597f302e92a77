import Foundation

/// A small seeded generator (SplitMix64) for replayable randomised tests.
/// The seed comes from `FOLIO_SEED` when set, otherwise from the clock; tests
/// print it so a failure can be replayed.
///
/// ```swift
/// var random = ResultsRandom.fromEnvironment()
/// print("seed:", random.seed)
/// let n = Int.random(in: 0..<10, using: &random)
/// ```
public struct ResultsRandom: RandomNumberGenerator {
    /// The seed this generator started from.
    public let seed: UInt64
    private var state: UInt64

    /// Creates a generator from a seed.
    ///
    /// ```swift
    /// var random = ResultsRandom(seed: 42)
    /// ```
    public init(seed: UInt64) {
        self.seed = seed
        self.state = seed
    }

    /// A generator seeded from `FOLIO_SEED`, or from the clock when it is unset.
    ///
    /// ```swift
    /// var random = ResultsRandom.fromEnvironment()
    /// ```
    public static func fromEnvironment() -> ResultsRandom {
        if let text = ProcessInfo.processInfo.environment["FOLIO_SEED"], let seed = UInt64(text) {
            return ResultsRandom(seed: seed)
        }
        return ResultsRandom(seed: UInt64(Date().timeIntervalSince1970 * 1_000_000))
    }

    /// The next 64 random bits.
    ///
    /// ```swift
    /// random.next()
    /// ```
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
