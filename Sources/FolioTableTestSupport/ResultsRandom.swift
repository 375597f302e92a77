import Foundation

/// A seeded generator for replayable randomised tests that also remembers
/// its seed: ``StoreSplitMix64`` with the seed taken from `FOLIO_SEED` when
/// set. Tests print the seed so that a failure can be replayed.
///
/// ```swift
/// var random = ResultsRandom.fromEnvironment()
/// print("seed:", random.seed)
/// let n = Int.random(in: 0..<10, using: &random)
/// ```
public struct ResultsRandom: RandomNumberGenerator {
    /// The seed this generator started from, e.g. for `print("seed:", random.seed)`.
    public let seed: UInt64
    private var base: StoreSplitMix64

    /// Creates a generator from a seed.
    ///
    /// ```swift
    /// var random = ResultsRandom(seed: 42)
    /// ```
    public init(seed: UInt64) {
        self.seed = seed
        base = StoreSplitMix64(seed: seed)
    }

    /// A generator seeded from `FOLIO_SEED`, or from a fresh random seed when it is unset.
    ///
    /// ```swift
    /// var random = ResultsRandom.fromEnvironment()
    /// ```
    public static func fromEnvironment() -> ResultsRandom { ResultsRandom(seed: StoreSplitMix64.seedFromEnvironment()) }

    /// The next 64 random bits.
    ///
    /// ```swift
    /// random.next()
    /// ```
    public mutating func next() -> UInt64 { base.next() }
}
