import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Search filters: case, diacritics and width folded the same way in SQL
/// (saved rows) and in memory (unsaved objects).
@MainActor
@Suite struct StringFilterTests {
    func context(_ names: [String]) throws -> (PersistentContainer, ObjectContext) {
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: nil)
        let context = container.viewContext
        for name in names {
            let animal = TestAnimal(context: context)
            animal.commonName = name
            animal.habitat = "Hall \(name.count)"
        }
        try context.save()
        return (container, context)
    }

    func names(_ context: ObjectContext, _ filter: StringFilter<TestAnimal>) throws -> [String] {
        var request = FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)])
        request.stringFilters = [filter]
        return try context.fetch(request).map(\.commonName)
    }

    @Test func caseAndDiacriticsFoldAsCoreDatasCD() throws {
        let (_, c) = try context(["Café Noir", "CAFE", "cafè", "Cafeteria", "Straße", "STRASSE", "Ωμέγα", "ﬁle", "Spider Monkey"])
        let cd: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
        #expect(
            try names(c, StringFilter(\TestAnimal.commonName, .contains("cafe"), options: cd)) == [
                "CAFE", "Cafeteria", "Café Noir", "cafè",
            ])
        #expect(try names(c, StringFilter(\TestAnimal.commonName, .contains("café"), options: .caseInsensitive)) == ["Café Noir"])
        #expect(try names(c, StringFilter(\TestAnimal.commonName, .contains("cafe"), options: .diacriticInsensitive)) == ["cafè"])
        #expect(try names(c, StringFilter(\TestAnimal.commonName, .equals("strasse"), options: .caseInsensitive)) == ["STRASSE", "Straße"])
        #expect(try names(c, StringFilter(\TestAnimal.commonName, .beginsWith("ΩΜΕΓ"), options: cd)) == ["Ωμέγα"])
        #expect(try names(c, StringFilter(\TestAnimal.commonName, .beginsWith("fi"), options: cd)) == ["ﬁle"])  // "ﬁ" uppercases to "FI"
        #expect(try names(c, StringFilter(\TestAnimal.commonName, .beginsWith("fi"), options: .diacriticInsensitive)) == [])
        #expect(try names(c, StringFilter(\TestAnimal.commonName, .beginsWith("fi"), options: [.widthInsensitive])) == ["ﬁle"])
        #expect(try names(c, StringFilter(\TestAnimal.commonName, .endsWith("MONKEY"), options: .caseInsensitive)) == ["Spider Monkey"])
        #expect(try names(c, StringFilter(\TestAnimal.commonName, .contains(""), options: cd)).count == 9)
    }

    @Test func anyOfMatchesWhenOneAttributeDoes() throws {
        let (_, c) = try context(["Okapi", "Lion", "Hall"])
        let filter = StringFilter<TestAnimal>(
            anyOf: [\TestAnimal.commonName, \TestAnimal.habitat], .contains("hall 4"), options: .caseInsensitive)
        #expect(try names(c, filter) == ["Hall", "Lion"])
        let none = StringFilter<TestAnimal>(
            anyOf: [\TestAnimal.commonName, \TestAnimal.habitat], .contains("oka"), options: .caseInsensitive)
        #expect(try names(c, none) == ["Okapi"])
    }

    @Test func aFilterOnANonStringAttributeFailsNamingIt() throws {
        let (_, c) = try context(["Okapi"])
        do {
            _ = try names(c, StringFilter(\TestAnimal.legs, .contains("4")))
            Issue.record("a filter on an Int attribute fetched")
        } catch {
            #expect("\(error)".contains("legs of TestAnimal, which is not a String attribute"), "\(error)")
        }
    }

    /// Random texts and needles from an alphabet of look-alikes: the saved
    /// rows (matched in SQL), the same objects with unsaved changes (matched
    /// in memory) and the filter's own test of each text (as a results
    /// controller narrowing its rows uses it) give the same answer.
    @Test func sqlAndMemoryFoldAlike() throws {
        try checkFoldingAlike([
            "a", "A", "á", "Á", "a\u{301}", "e", "É", "ß", "SS", "ss", "ﬁ", "fi", "İ", "i", "ı", "ς", "Σ", "σ", "ø", "Ｅ",
            "’", " ", "z", "\u{301}", "Ǆ", "ǆ", "ﬀ", "🦁", "Ω", "ω",
        ])
    }

    /// ASCII texts take a path of their own in memory: letters at the edges
    /// of the alphabets and the characters beside them fold as in SQL.
    @Test func asciiTextsFoldAlike() throws {
        try checkFoldingAlike(["a", "A", "z", "Z", "@", "[", "`", "{", "m", "M", "0", " ", "ab", "AB"])
    }

    /// Texts sorted by their scalars: a total order, where `String`'s own
    /// `<` is not one for some texts that start with a combining mark, so
    /// that two sorts of the same texts could differ.
    func inScalarOrder(_ texts: [String]) -> [String] {
        texts.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
    }

    func checkFoldingAlike(_ pieces: [String]) throws {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed)
        func text(_ length: ClosedRange<Int>) -> String {
            (0..<Int.random(in: length, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        }
        let stored = (0..<120).map { _ in text(0...6) }.map { $0.isEmpty ? "-" : $0 }
        let (_, c) = try context(stored)
        let options: [String.CompareOptions] = [
            [], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive],
            .widthInsensitive, [.caseInsensitive, .diacriticInsensitive, .widthInsensitive],
        ]
        var filters: [StringFilter<TestAnimal>] = []
        for _ in 0..<150 {
            let needle = text(0...3)
            let match: StringMatch = [.contains(needle), .beginsWith(needle), .endsWith(needle), .equals(needle)].randomElement(
                using: &random)!
            filters.append(StringFilter(\TestAnimal.commonName, match, options: options.randomElement(using: &random)!))
        }
        let saved = try filters.map { inScalarOrder(try names(c, $0)) }
        for (filter, inSQL) in zip(filters, saved) {
            let test = filter.textTest
            #expect(inScalarOrder(stored.filter { test.matches($0) }) == inSQL, "\(filter), seed \(random.seed)")
        }
        for animal in try c.fetch(FetchRequest<TestAnimal>()) { animal.legs += 1 }  // every object now pending: matched in memory
        for (filter, inSQL) in zip(filters, saved) {
            #expect(inScalarOrder(try names(c, filter)) == inSQL, "\(filter), seed \(random.seed)")
        }
    }
}
