import FolioTable
import FolioTableTestSupport
import Foundation
import Testing

/// A subtitle cell gets the two lines it needs by itself, as UIKit sizes
/// one: no `rowHeight = 2` in the app. Rows without detail text, other
/// styles, and a number set as `rowHeight` keep one line (or that number).
@MainActor
@Suite struct SubtitleHeightTests {
    final class Animals: TableViewDataSource {
        /// The detail of each row; empty draws no second line.
        var habitats: [String]
        var style: TableViewCell.Style = .subtitle

        init(_ habitats: [String]) { self.habitats = habitats }

        func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { habitats.count }
        func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
            let cell = tableView.dequeueReusableCell(withIdentifier: "Animal") ?? TableViewCell(style: style, reuseIdentifier: "Animal")
            cell.textLabel?.text = "Animal \(indexPath.row)"
            cell.detailTextLabel?.text = habitats[indexPath.row]
            return cell
        }
    }

    func heights(_ table: TableView) -> [Int] { table.layoutItems().map(\.height) }

    @Test func aSubtitleCellTakesTwoLinesWithoutARowHeight() {
        let source = Animals(Array(repeating: "Forest", count: 100))
        let table = TableView(viewportHeight: 10)
        table.dataSource = source
        #expect(heights(table) == [2, 2, 2, 2, 2])
        #expect(table.indexPathsForVisibleRows.count == 5)
        table.scroll(byLines: 4)
        #expect(table.indexPathsForVisibleRows.first == IndexPath(row: 2, section: 0))
        try? table.scrollToRow(at: IndexPath(row: 99, section: 0), at: .bottom)
        #expect(table.indexPathsForVisibleRows.last == IndexPath(row: 99, section: 0))
        #expect(heights(table).reduce(0, +) == 10)
        table.checkInvariants()
    }

    @Test func eachRowIsAsTallAsItsOwnCell() {
        let source = Animals(["Forest", "", "Savanna", "", ""])
        let table = TableView(viewportHeight: 10)
        table.dataSource = source
        #expect(heights(table) == [2, 1, 2, 1, 1])
        table.checkInvariants()
    }

    @Test func otherStylesAndAnExplicitHeightKeepTheirLines() {
        let source = Animals(Array(repeating: "Forest", count: 20))
        source.style = .value1
        let table = TableView(viewportHeight: 6)
        table.dataSource = source
        #expect(heights(table) == [1, 1, 1, 1, 1, 1])
        let compact = TableView(viewportHeight: 6)
        let subtitles = Animals(Array(repeating: "Forest", count: 20))
        compact.dataSource = subtitles
        compact.rowHeight = 1
        #expect(heights(compact) == [1, 1, 1, 1, 1, 1])
    }

    /// A row off screen counts at the height of the last cell measured: a
    /// taller row revealed from afar is still placed whole, however far the
    /// rows before it were from it (the last row of a section list left one
    /// line below the viewport).
    @Test func aRowRevealedFromAfarShowsWholeWhateverTheEstimate() {
        let oneThenTwo = Array(repeating: "", count: 30) + Array(repeating: "Forest", count: 10)
        let twoThenOne = Array(repeating: "Forest", count: 30) + Array(repeating: "", count: 10)
        for habitats in [oneThenTwo, twoThenOne] {
            for target in [39, 35, 30, 29, 12] {
                let table = TableView(viewportHeight: 9)
                let source = Animals(habitats)
                table.dataSource = source
                table.highlightRow(at: IndexPath(row: 0, section: 0))
                table.highlightRow(at: IndexPath(row: target, section: 0))
                #expect(
                    table.isRowFullyVisible(IndexPath(row: target, section: 0)),
                    "row \(target) of \(habitats.first ?? "")-first: \(table.layoutItems().map { "\($0.kind)@\($0.y)+\($0.height)" })")
                table.checkInvariants()
            }
        }
    }

    final class SectionedAnimals: TableViewDataSource {
        /// Per section, the detail of each row; empty draws no second line.
        let habitats: [[String]]

        init(_ habitats: [[String]]) { self.habitats = habitats }

        func numberOfSections(in tableView: TableView) -> Int { habitats.count }
        func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { habitats[section].count }
        func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? { "Section \(section)" }
        func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
            let cell = tableView.dequeueReusableCell(withIdentifier: "Animal") ?? TableViewCell(style: .subtitle, reuseIdentifier: "Animal")
            cell.textLabel?.text = "Animal \(indexPath.row)"
            cell.detailTextLabel?.text = habitats[indexPath.section][indexPath.row]
            return cell
        }
    }

    /// Sections of rows of one line and of two, in any mix, and a row
    /// highlighted far from the one before (the last one, as End does, or
    /// any): it shows whole. The rows between were counted at the last cell
    /// measured, and at the table's end the last page is kept full by that
    /// count too, so the last row was left just below the viewport (in
    /// about one table in ten here before its neighbours were measured).
    @Test func aRowHighlightedFarAwayAmongSectionsShowsWhole() {
        var random = ResultsRandom.fromEnvironment()
        print("SubtitleHeightTests.aRowHighlightedFarAwayAmongSectionsShowsWhole seed: \(random.seed) (FOLIO_SEED replays)")
        for round in 0..<1500 {
            let habitats = (0..<Int.random(in: 1...7, using: &random)).map { _ in
                (0..<Int.random(in: 1...8, using: &random)).map { _ in Bool.random(using: &random) ? "Forest" : "" }
            }
            let table = TableView(viewportHeight: Int.random(in: 4...19, using: &random))
            let source = SectionedAnimals(habitats)
            table.dataSource = source
            table.highlightRow(at: IndexPath(row: 0, section: 0))
            let section = Bool.random(using: &random) ? habitats.count - 1 : Int.random(in: 0..<habitats.count, using: &random)
            let row =
                Bool.random(using: &random) ? habitats[section].count - 1 : Int.random(in: 0..<habitats[section].count, using: &random)
            let target = IndexPath(row: row, section: section)
            table.highlightRow(at: target)
            #expect(
                table.isRowFullyVisible(target),
                "round \(round), seed \(random.seed): \(target) of \(habitats.map { $0.map { $0.isEmpty ? "1" : "2" }.joined() }) in \(table.viewportHeight) lines: \(table.layoutItems().map { "\($0.kind)@\($0.y)+\($0.height)" })"
            )
            table.checkInvariants()
        }
    }
}
