import FolioTableTestSupport

extension ResultsRandom {
    /// The shared seeded generator, with its seed printed for replay (`FOLIO_SEED`).
    static func printingSeed(_ label: String) -> ResultsRandom {
        let random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed, "(\(label); replay with FOLIO_SEED=\(random.seed))")
        return random
    }
}
