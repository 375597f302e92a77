import Testing

@testable import FolioAppSupport

@Suite struct ListingTests {
    @Test func plainTextHasHeadersAndIndentedRows() {
        let table = ListedTable(sections: [
            .init(name: "Primates", rows: [.init(id: "1", text: "Mantled Howler — Primate Exhibit", fields: [])]),
            .init(name: "", rows: [.init(id: "2", text: "Mars", fields: [])]),
        ])
        #expect(table.plainText == "Primates\n  Mantled Howler — Primate Exhibit\n  Mars\n")
    }

    @Test func jsonKeepsKeyOrderAndEscapes() {
        let table = ListedTable(sections: [
            .init(
                name: "Bar",
                rows: [
                    .init(
                        id: "7", text: "x",
                        fields: [
                            ("description", .string("a\"b\u{1B}[31m")), ("latitude", .number(37.5)), ("n", .integer(3)),
                        ])
                ])
        ])
        #expect(
            table.json.text
                == #"[{"name":"Bar","rows":[{"id":"7","description":"a\"b\u001b[31m","latitude":37.5,"n":3}]}]"#)
    }

    @Test func controlCharactersAreShownVisibly() {
        #expect(TextSanitizer.visible("a\u{1B}[2Jb\u{7F}\u{9B}") == "a^[[2Jb^?<9B>")
        #expect(TextSanitizer.visible("Geoffroy’s") == "Geoffroy’s")
    }

    @Test func sampleDataKeepsTheSourcesSpellings() {
        #expect(SampleData.animals.contains { $0.commonName == "Geoffroy\u{2019}s Spider Monkey" })
        #expect(SampleData.animals.filter { $0.habitat.contains("Mamals") }.count == 2)
        #expect(SampleData.planets.last == "Team Pluto!")
        #expect(SampleData.races.map(\.name) == ["Protoss", "Terran", "Zerg"])
        #expect(SampleData.races[1].units.filter { $0.name == "MULE" }.count == 2)
        #expect(SampleData.locationCategories.first == "No Category")
        #expect(Set(SampleData.locations.map(\.category)).count >= 4)
    }
}
