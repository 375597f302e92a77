import FolioTable
import FolioTableTestSupport
import Testing

/// Random scrolling, highlight moves, height changes and batches on small
/// tables, checked against a flat model of every item and its height.
@MainActor
struct ViewportModelTests {
    private func flatItems(_ table: TableView, _ source: TableArrayDataSource, _ delegate: TableRecordingDelegate)
        -> [(TableLayoutItem.Kind, Int)]
    {
        var items: [(TableLayoutItem.Kind, Int)] = []
        for (section, rows) in source.sections.enumerated() {
            if let title = table.headerTitle(forSection: section), !title.isEmpty { items.append((.header(section: section), 1)) }
            for row in rows.indices {
                let path = IndexPath(row: row, section: section)
                items.append((.row(path), delegate.rowHeights[path] ?? 1))
            }
            if table.footerTitle(forSection: section) != nil { items.append((.footer(section: section), 1)) }
        }
        return items
    }

    private func check(_ table: TableView, _ source: TableArrayDataSource, _ delegate: TableRecordingDelegate, _ context: String) {
        let layout = table.layoutItems()
        let flat = flatItems(table, source, delegate)
        guard let first = layout.first else {
            #expect(flat.isEmpty, "\(context): empty layout for \(flat.count) items")
            return
        }
        guard let start = flat.firstIndex(where: { $0.0 == first.kind }) else {
            Issue.record("\(context): top item \(first.kind) not in the model")
            return
        }
        var y = 0
        var expected: [TableLayoutItem.Kind] = []
        var index = start
        while index < flat.count, y < table.viewportHeight {
            expected.append(flat[index].0)
            y += flat[index].1
            index += 1
        }
        #expect(layout.map(\.kind) == expected, "\(context)")
        #expect(layout.first?.y == 0 && zip(layout, layout.dropFirst()).allSatisfy { $0.y + $0.height == $1.y }, "\(context)")
        // Never more empty space at the bottom than the item above the top could fill.
        if y < table.viewportHeight, start > 0 {
            #expect(y + flat[start - 1].1 > table.viewportHeight, "\(context): top \(first.kind) leaves the bottom empty")
        }
        for path in table.indexPathsForVisibleRows {
            #expect(table.cellForRow(at: path)?.textLabel?.text == source[path], "\(context): cell at \(path)")
        }
        table.checkInvariants()
    }

    @Test func rule_8_4_randomViewportOperations() throws {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed)
        var ids = 0
        for round in 0..<30 {
            let source = TableArrayDataSource(
                (0..<Int.random(in: 1...5, using: &random)).map { _ in
                    (0..<Int.random(in: 0...8, using: &random)).map { _ -> String in
                        ids += 1; return "r\(ids)"
                    }
                })
            source.headers = source.sections.indices.map { _ in Bool.random(using: &random) ? "H" : nil }
            source.footers = source.sections.indices.map { _ in Int.random(in: 0..<4, using: &random) == 0 ? "F" : nil }
            let table = source.makeTable(viewportHeight: Int.random(in: 1...7, using: &random))
            let delegate = TableRecordingDelegate()
            table.delegate = delegate
            for step in 0..<80 {
                let context = "round \(round) step \(step)"
                switch Int.random(in: 0..<6, using: &random) {
                case 0:
                    table.scroll(byLines: .random(in: -6...6, using: &random))
                case 1:
                    table.moveHighlight(by: .random(in: -5...5, using: &random))
                    if let highlighted = table.highlightedIndexPath {
                        #expect(
                            table.isRowFullyVisible(highlighted) || (delegate.rowHeights[highlighted] ?? 1) > table.viewportHeight,
                            "\(context): \(highlighted) in \(table.layoutItems()) height \(table.viewportHeight) \(delegate.rowHeights)")
                    }
                case 2:
                    let rows = source.sections.indices.flatMap { s in source.sections[s].indices.map { IndexPath(row: $0, section: s) } }
                    if let path = rows.randomElement(using: &random) {
                        delegate.rowHeights[path] = .random(in: 1...3, using: &random)
                        table.setNeedsLayout()
                    }
                case 3:
                    table.viewportHeight = .random(in: 1...7, using: &random)
                case 4:
                    let rows = source.sections.indices.flatMap { s in source.sections[s].indices.map { IndexPath(row: $0, section: s) } }
                    if let path = rows.randomElement(using: &random) {
                        let positions: [TableView.ScrollPosition] = [.none, .top, .middle, .bottom]
                        try table.scrollToRow(at: path, at: positions.randomElement(using: &random)!)
                        if (delegate.rowHeights[path] ?? 1) <= table.viewportHeight {
                            #expect(table.isRowFullyVisible(path), "\(context): scrolled to \(path)")
                        }
                    }
                default:
                    delegate.rowHeights = [:]  // paths shift in a batch; heights are per path
                    let scenario = TableScenario.random(from: source.sections, using: &random, nextID: &ids)
                    let headers = scenario.new.indices.map { _ in Bool.random(using: &random) ? "H" : nil as String? }
                    source.sections = scenario.new
                    source.headers = headers
                    source.footers = []
                    try table.apply(scenario.batch)
                }
                check(table, source, delegate, context)
            }
        }
    }

    @Test func displayEvents_recordThenCompare() {
        let source = TableArrayDataSource([["a", "b", "c", "d"]])
        let table = source.makeTable(viewportHeight: 2)
        let delegate = TableRecordingDelegate()
        delegate.recordsDisplay = true
        table.delegate = delegate
        table.reloadData()
        _ = table.layoutItems()
        table.scroll(byLines: 1)
        _ = table.layoutItems()
        #expect(delegate.events == ["willDisplay [0, 0]", "willDisplay [0, 1]", "didEndDisplaying [0, 0]", "willDisplay [0, 2]"])
        delegate.events = []
        table.reloadData()
        _ = table.layoutItems()
        #expect(
            delegate.events.sorted() == ["didEndDisplaying [0, 1]", "didEndDisplaying [0, 2]", "willDisplay [0, 1]", "willDisplay [0, 2]"])
    }
}
