import Foundation

/// A small seeded PRNG (StoreSplitMix64) for replayable randomised tests.
///
///     var rng = StoreSplitMix64(seed: StoreSplitMix64.seedFromEnvironment())
///     let n = Int.random(in: 0..<10, using: &rng)
public struct StoreSplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `FOLIO_SEED` from the environment when set (to replay a run), else a new random seed.
    public static func seedFromEnvironment() -> UInt64 {
        if let s = ProcessInfo.processInfo.environment["FOLIO_SEED"], let v = UInt64(s) { return v }
        return UInt64.random(in: 1...UInt64.max)
    }
}
