import FolioStore
import FolioTableTestSupport
import FolioTestSupport
import Foundation
import Testing

@testable import FolioResults

/// A keystroke's test of the folded texts and its outcome, against a plain
/// filter: every candidate row tested text by text with the store's own
/// test, and the members compared one by one. Random texts (non-ASCII,
/// nil, several attributes), matches, foldings, candidates and sections,
/// big enough that the work is shared among threads.
@Suite struct SearchMatchingTests {
    static let pieces = ["a", "á", "A", "b", "B", "é", "E", "e\u{301}", "ß", "ss", "Ｆ", "f", "x", "ｘ", "🙂", " "]
    static let foldings: [String.CompareOptions] = [
        [], [.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive],
    ]

    static func word(_ random: inout ResultsRandom, _ lengths: ClosedRange<Int>) -> String {
        (0..<Int.random(in: lengths, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    /// Random places among `rows`, in order, about `density` of them.
    static func places(_ rows: Int, density: Double, _ random: inout ResultsRandom) -> [Int32] {
        (0..<Int32(rows)).filter { _ in Double.random(in: 0..<1, using: &random) < density }
    }

    @Test func matchingEqualsAPlainFilterOfTheCandidates() throws {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed)
        for trial in 0..<40 {
            let rows = trial == 0 ? 0 : trial % 8 == 1 ? 40_000 : Int.random(in: 1...600, using: &random)
            let attributes = Int.random(in: 1...3, using: &random)
            let texts: [[String?]] = (0..<rows).map { _ in
                (0..<attributes).map { _ in Int.random(in: 0..<5, using: &random) == 0 ? nil : Self.word(&random, 0...6) }
            }
            let options = Self.foldings.randomElement(using: &random)!
            let index = try SearchIndex(
                keyPaths: (0..<attributes).map { _ in \ResultsItem.name as AnyKeyPath }, options: options, rows: rows
            ) { row, add in
                for text in texts[row] { add(text) }
            }
            for _ in 0..<12 {
                let needle = Self.word(&random, 0...3)
                let match: StringMatch =
                    switch Int.random(in: 0..<8, using: &random) {
                    case 0: .equals(needle)
                    case 1: .beginsWith(needle)
                    case 2: .endsWith(needle)
                    default: .contains(needle)
                    }
                let test = StringTextTest(match, options: options)
                let density = [0.01, 0.2, 0.5, 0.95].randomElement(using: &random)!
                let candidates = Bool.random(using: &random) ? nil : Self.places(rows, density: density, &random)
                let plain = (candidates ?? (0..<Int32(rows)).map { $0 }).filter { row in
                    texts[Int(row)].contains { test.matches($0) }
                }
                let found = index.matching(test, among: candidates)
                #expect(
                    found == plain, "seed \(random.seed), trial \(trial): \(match) \(options) among \(candidates?.count ?? rows) of \(rows)"
                )
                if found != plain { return }
            }
        }
    }

    @Test func anOutcomeEqualsAPlainComparisonOfTheMembers() {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed)
        for trial in 0..<30 {
            // Sections of random sizes (empty ones too), one big enough to be copied in parts.
            // Trial 1 has the big section alone: every section is copied in parts, none in shares.
            let sizes = (0..<(trial == 1 ? 1 : Int.random(in: 1...12, using: &random))).map { s in
                trial % 5 == 1 && s == 0 ? 70_000 : Int.random(in: 0...3_000, using: &random)
            }
            // Keys in order, IDs shuffled (dense, as the store's), so that an engine loads them in parts.
            let ids = Array(1...Int64(sizes.reduce(1, +))).shuffled(using: &random)
            var next = 0
            let sections: SearchScan.Sections = sizes.enumerated().map { s, size in
                let entries = ContiguousArray(
                    (0..<size).map { _ -> SearchScan.Entry in
                        next += 1
                        return SearchScan.Entry(key: RowKey(one: .integer(Int64(next)), ascending: true), id: ids[next])
                    })
                return (SectionKey(.integer(Int64(s)), ascending: true), entries, ContiguousArray(entries.map(\.key.lead)))
            }
            var starts = [0]
            for size in sizes { starts.append(starts.last! + size) }
            let rows = starts.last!
            let every = Array(0..<Int32(rows))
            func members() -> [Int32]? {
                let density = [0.001, 0.3, 0.9].randomElement(using: &random)!
                return Int.random(in: 0..<4, using: &random) == 0 ? nil : Self.places(rows, density: density, &random)
            }
            let (before, after) = (members(), members())
            let outcome = SearchScan.Outcome(before: before, after: after, rows: rows)
            let old = Set(before ?? every), new = Set(after ?? every)
            let flat = sections.flatMap(\.entries)
            let leaving = (before ?? every).filter { !new.contains($0) }
            let entering = (after ?? every).filter { !old.contains($0) }
            let message = "seed \(random.seed), trial \(trial)"
            #expect(outcome.count == new.count && outcome.leavingCount == leaving.count, "\(message)")
            #expect(outcome.enteringCount == entering.count, "\(message)")
            #expect(outcome.leaving(sections, starts: starts) == leaving.map { flat[Int($0)].id }, "\(message)")
            #expect(outcome.enteringIDs(sections, starts: starts) == entering.map { flat[Int($0)].id }, "\(message)")
            let kept = outcome.kept(sections, starts: starts)
            let plain = sections.indices.map { s in
                sections[s].entries.indices.filter { new.contains(Int32(starts[s] + $0)) }.map { sections[s].entries[$0] }
            }
            #expect(kept.map(\.section) == sections.map(\.section), "\(message)")
            #expect(kept.map { Array($0.entries) } == plain, "\(message)")
            #expect(kept.map { Array($0.leads) } == plain.map { $0.map(\.key.lead) }, "\(message)")
            let engine = ResultsEngine<Int64, RowKey, SectionKey>()
            engine.load(sorted: kept)
            engine.checkInvariants()
            #expect(engine.snapshot().map(\.ids) == plain.filter { !$0.isEmpty }.map { $0.map(\.id) }, "\(message)")
            // Members found among the members before stay among them: counted without comparing.
            if let before {
                let among = before.filter { _ in Bool.random(using: &random) }
                let counted = SearchScan.Outcome(before: before, after: among, rows: rows, subset: true)
                let compared = SearchScan.Outcome(before: before, after: among, rows: rows)
                #expect(counted.leavingCount == compared.leavingCount && counted.enteringCount == 0 && compared.enteringCount == 0)
            }
        }
    }
}
