import FolioTestSupport
import Foundation
import Testing

@testable import FolioAppSupport

/// The readers behind `import`: CSV as RFC 4180 writes it and JSON as
/// `list --json` prints it give every text back exactly, and a malformed
/// file is named by its line.
@Suite struct TransferFormatTests {
    /// Texts built from the characters that need quoting or escaping, and others.
    static func randomText(_ generator: inout StoreSplitMix64) -> String {
        let pieces = [",", "\"", "\n", "\r", "\r\n", " ", "a", "Zoo", "é", "👩‍🚀", "\u{1B}[2J", "\u{2028}", "\t", "\\", "[", "]", ""]
        return (0..<Int(generator.next() % 6)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
    }

    @Test func randomRowsRoundTripThroughCSVAndJSON() throws {
        let seed = StoreSplitMix64.seedFromEnvironment()
        print("TransferFormatTests seed \(seed) (replay with FOLIO_SEED=\(seed))")
        var generator = StoreSplitMix64(seed: seed)
        for _ in 0..<200 {
            let width = 1 + Int(generator.next() % 4)
            let rows = (0..<Int(generator.next() % 8)).map { _ in (0..<width).map { _ in Self.randomText(&generator) } }
            let header = (0..<width).map { "f\($0)" }
            let csv = ([header] + rows).map(CSVText.line).joined(separator: "\n") + "\n"
            let read = try CSVText.records(Array(csv.utf8))
            #expect(read.map(\.fields) == [header] + rows, "seed \(seed): \(csv.debugDescription)")

            let table = ListedTable(sections: [
                .init(
                    name: "",
                    rows: rows.enumerated().map { index, row in
                        .init(id: "\(index)", text: "", fields: zip(header, row).map { ($0, .string($1)) })
                    })
            ])
            let json = AppTransfer.json(table)
            let records = try TransferFormat.json.records(Array(json.utf8), known: header)
            #expect(records.map { record in header.map { try? record.text($0) } } == rows.map { $0.map(Optional.some) }, "seed \(seed)")
            #expect(records.map(\.line) == rows.indices.map { $0 + 2 }, "seed \(seed): a row per line")
        }
    }

    /// The repeat check of a new store's names finds, as the unique index
    /// compares bytes, the first row that repeats an earlier one.
    @Test func theFirstRepeatIsFoundByBytes() {
        let seed = StoreSplitMix64.seedFromEnvironment()
        print("TransferFormatTests repeats seed \(seed) (replay with FOLIO_SEED=\(seed))")
        var generator = StoreSplitMix64(seed: seed)
        for _ in 0..<300 {
            let alphabet = ["a", "b", "é", "e\u{301}", "👩‍🚀"]
            let count = Int(generator.next() % 40), width = 1 + Int(generator.next() % 3)
            let names = (0..<count).map { _ in (0..<width).map { _ in alphabet[Int(generator.next() % 5)] }.joined() }
            var seen: [[UInt8]: Int] = [:]
            var expected: (first: Int, again: Int)?
            for (index, name) in names.enumerated() {
                if let first = seen[Array(name.utf8)] { expected = (first, index); break }
                seen[Array(name.utf8)] = index
            }
            let found = AppTransfer.firstRepeat(names.count) { names[$0] }
            #expect(found?.first == expected?.first && found?.again == expected?.again, "seed \(seed): \(names)")
        }
        #expect(AppTransfer.firstRepeat(2) { ["é", "e\u{301}"][$0] } == nil, "equal as Swift strings, two rows in the index")
    }

    @Test func malformedFilesAreNamedByLine() {
        func csvProblem(_ text: String) -> String {
            do { _ = try TransferFormat.csv.records(Array(text.utf8), known: ["name"]); return "" } catch { return "\(error)" }
        }
        #expect(csvProblem("name\nok\n\"open\n").hasPrefix("line 3: a quoted field is not closed"))
        #expect(csvProblem("name\nsay \"hi\"\n").hasPrefix("line 2: a quote inside an unquoted field"))
        #expect(csvProblem("name\n\"a\"b\n").hasPrefix("line 2: text after a quoted field"))
        #expect(csvProblem("name,extra\n").hasPrefix("line 1, field 'extra': not a field here"))
        #expect(csvProblem("name\na,b\n").hasPrefix("line 2: 2 fields where the header has 1"))
        let notUTF8: [UInt8] = Array("name\nok\n".utf8) + [0xFF, 0x0A]
        #expect(throws: ImportError.self) { try TransferFormat.csv.records(notUTF8, known: ["name"]) }
        do { _ = try TransferFormat.csv.records(notUTF8, known: ["name"]) } catch {
            #expect("\(error)".hasPrefix("line 3: the text is not UTF-8"), "\(error)")
        }
        func jsonProblem(_ text: String) -> String {
            do { _ = try TransferFormat.json.records(Array(text.utf8), known: ["name"]); return "" } catch { return "\(error)" }
        }
        #expect(jsonProblem("[{\"name\":\"\",\"rows\":[\n{\"name\":\"a\"},\n{\"name\":\"b\",}\n]}]").hasPrefix("line 3: not JSON"))
        #expect(jsonProblem("[{\"name\":\"\",\"rows\":[\n{\"nmae\":\"a\"}]}]").hasPrefix("line 2, field 'nmae': not a field here"))
        #expect(jsonProblem("{\"rows\":[]}").contains("as `list --json` prints it"))
        // Deep nesting is refused, never a crash: the file's shape first, a row's value by its depth.
        #expect(jsonProblem(String(repeating: "[", count: 100_000)).contains("as `list --json` prints it"))
        #expect(jsonProblem("[{\"rows\":[{\"name\":" + String(repeating: "[", count: 100_000)).contains("nested more than"))
    }
}
