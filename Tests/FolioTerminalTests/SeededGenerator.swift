import Foundation

/// SplitMix64: a small seeded generator; the seed comes from `FOLIO_SEED`
/// when set, so that a failing randomised test can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// A generator seeded from `FOLIO_SEED` or a fresh seed, printed.
    static func fromEnvironment(_ label: String) -> SeededGenerator {
        let seed = ProcessInfo.processInfo.environment["FOLIO_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 0...UInt64(UInt32.max))
        print("seed:", seed, "(\(label); replay with FOLIO_SEED=\(seed))")
        return SeededGenerator(seed: seed)
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
