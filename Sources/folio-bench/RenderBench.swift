import FolioTable
import FolioTerminal
import Foundation

/// `folio-bench render --rows N [--json]`: time from a key press (move down,
/// swipe, a one-row live update) to a finished frame on a sectioned table at
/// 120x40, and the bytes written for that frame. The same scenario runs on a
/// 1,000-row table as the baseline: a ratio near 1 shows the cost does not
/// grow with N. A full redraw of the same frame is the baseline for bytes.
@MainActor
func runRenderBench(_ options: [String]) {
    RenderBench.run(options)
}

@MainActor
private enum RenderBench {
    struct Result {
        var rows: Int
        var moveMicros: Double
        var swipeMicros: Double
        var updateMicros: Double
        var moveBytes: Int
        var swipeBytes: Int
        var updateBytes: Int
        var fullRedrawBytes: Int
    }

    static func run(_ options: [String]) {
        let options = BenchOptions(options, suite: "render", defaultRows: 1_000_000)
        let rows = options.rows, json = options.json
        let baselineRows = min(1_000, rows)
        let baseline = measure(rows: baselineRows)
        let result = measure(rows: rows)
        print("render: 120x40 sectioned table, 1,000 rows per section; medians of 200 frames")
        print(
            "rows".padding(toLength: 12, withPad: " ", startingAt: 0)
                + ["move_us", "swipe_us", "update_us"].map {
                    String(repeating: " ", count: 13 - $0.count) + $0
                }.joined())
        for r in [baseline, result] {
            print(String(format: "%-12d %12.1f %12.1f %12.1f", r.rows, r.moveMicros, r.swipeMicros, r.updateMicros))
        }
        print(
            String(
                format: "ratio %d/%d rows: move %.2f, swipe %.2f, update %.2f (1.00 = independent of N)",
                rows, baselineRows, result.moveMicros / baseline.moveMicros,
                result.swipeMicros / baseline.swipeMicros, result.updateMicros / baseline.updateMicros))
        print(
            "bytes per frame: move \(result.moveBytes), swipe \(result.swipeBytes), one-row update \(result.updateBytes); "
                + "full redraw \(result.fullRedrawBytes) (update is "
                + String(format: "%.1f%%", 100 * Double(result.updateBytes) / Double(result.fullRedrawBytes)) + " of it)")
        let frame = max(result.moveMicros, result.swipeMicros, result.updateMicros)
        if json {
            let object: [String: Any] = [
                "rows": result.rows,
                "frame_us": (frame * 10).rounded() / 10,
                "bytes_per_update": result.updateBytes,
                "move_us": (result.moveMicros * 10).rounded() / 10,
                "swipe_us": (result.swipeMicros * 10).rounded() / 10,
                "update_us": (result.updateMicros * 10).rounded() / 10,
                "baseline_rows": baseline.rows,
                "baseline_frame_us": (max(baseline.moveMicros, baseline.swipeMicros, baseline.updateMicros) * 10).rounded() / 10,
                "full_redraw_bytes": result.fullRedrawBytes,
            ]
            let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        }
    }

    static func measure(rows: Int) -> Result {
        let perSection = 1_000
        let sections = max(1, (rows + perSection - 1) / perSection)
        let source = BenchTable(rows: rows, perSection: perSection, sections: sections)
        let driver = CountingDriver(columns: 120, rows: 40)
        let application = Application(root: NavigationController(root: source), driver: driver)
        application.render()
        let fullRedrawBytes = driver.lastBytes
        // Start in the middle so that moves scroll through real rows.
        let middle = IndexPath(row: min(perSection, rows) / 2, section: sections / 2)
        source.tableView.highlightRow(at: middle)
        application.render()

        let down = Array("\u{1B}[B".utf8)
        let swipe = Array("h".utf8)
        let hide = Array("l".utf8)
        var move: [Double] = [], swipeTimes: [Double] = [], update: [Double] = []
        var moveBytes: [Int] = [], swipeBytes: [Int] = [], updateBytes: [Int] = []
        for frame in 0..<200 {
            move.append(time { application.receive(down) })
            moveBytes.append(driver.lastBytes)
            let wasSwiped = source.tableView.swipedIndexPath != nil
            swipeTimes.append(time { application.receive(wasSwiped ? hide : swipe) })
            swipeBytes.append(driver.lastBytes)
            // A live update of one visible row, as a store notification would cause.
            let visible = source.tableView.indexPathsForVisibleRows
            let target = visible[frame % visible.count]
            update.append(
                time {
                    source.revision += 1
                    source.tableView.reloadRows(at: [target])
                    application.render()
                })
            updateBytes.append(driver.lastBytes)
        }
        return Result(
            rows: rows, moveMicros: median(move), swipeMicros: median(swipeTimes), updateMicros: median(update),
            moveBytes: medianInt(moveBytes), swipeBytes: medianInt(swipeBytes), updateBytes: medianInt(updateBytes),
            fullRedrawBytes: fullRedrawBytes)
    }

    static func time(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    static func medianInt(_ values: [Int]) -> Int { values.sorted()[values.count / 2] }
}

/// A driver that renders like the real one and counts the bytes, without a terminal.
@MainActor
private final class CountingDriver: TerminalDriver {
    let size: TerminalSize
    private var renderer = ANSIRenderer(colors: true)
    private(set) var lastBytes = 0

    init(columns: Int, rows: Int) {
        size = TerminalSize(columns: columns, rows: rows)
    }

    func present(_ screen: Screen) {
        lastBytes = renderer.render(screen).count
    }

    func invalidate() { renderer.invalidate() }
}

/// A sectioned table of `rows` rows computed from their index paths.
@MainActor
private final class BenchTable: TableViewController, TableViewDataSource, TableViewDelegate {
    let rows: Int
    let perSection: Int
    let sections: Int
    var revision = 0

    init(rows: Int, perSection: Int, sections: Int) {
        self.rows = rows
        self.perSection = perSection
        self.sections = sections
        super.init(title: "Bench")
        tableView.register(forCellReuseIdentifier: "Row") { TableViewCell(style: .value1, reuseIdentifier: $0) }
        tableView.dataSource = self
        tableView.delegate = self
    }

    func numberOfSections(in tableView: TableView) -> Int { sections }
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        min(perSection, rows - section * perSection)
    }
    func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? { "Section \(section)" }
    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Row", for: indexPath)
        cell.textLabel?.text = "Row \(indexPath.section * perSection + indexPath.row)"
        cell.detailTextLabel?.text = "rev \(revision)"
        cell.accessoryType = .disclosureIndicator
        return cell
    }
    func tableView(_ tableView: TableView, commit editingStyle: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {}
}
