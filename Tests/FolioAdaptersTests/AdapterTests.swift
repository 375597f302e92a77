import FolioAdapters
import FolioResults
import FolioTable
import FolioTestSupport
import Testing

/// Both adapters, fed by the results engine's change reports for random
/// saves: zero refusals, and every visible cell shows the current object.
@MainActor
struct AdapterTests {
    /// The app side: objects with a sort value, a group and a version that
    /// changes whenever the object itself does.
    final class Model: TableViewDataSource {
        struct Object { var value: Int; var group: Int; var member: Bool; var version: Int }
        var objects: [Int: Object] = [:]
        let engine = ResultsEngine<Int, Int, Int>()

        func text(_ id: Int) -> String { "\(id) v\(objects[id]!.version)" }

        func row(_ id: Int) -> ResultsRow<Int, Int, Int>? {
            guard let object = objects[id], object.member else { return nil }
            return ResultsRow(id: id, key: object.value, section: object.group)
        }

        func numberOfSections(in tableView: TableView) -> Int { engine.numberOfSections }
        func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { engine.numberOfRows(inSection: section) }
        func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
            let cell = tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
            cell.textLabel?.text = text(engine.id(at: indexPath))
            return cell
        }

        /// A random save: inserts, deletes, key changes, touches.
        func randomSave(using random: inout ResultsRandom, nextID: inout Int) -> [ResultsRowChange<Int, Int, Int>] {
            var changed: [Int: Bool] = [:]
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let id = objects.keys.randomElement(using: &random) ?? 0
                switch Int.random(in: 0..<6, using: &random) {
                case 0:
                    objects[nextID] = Object(
                        value: .random(in: 0..<20, using: &random), group: .random(in: 0..<5, using: &random),
                        member: true, version: 0)
                    changed[nextID] = true
                    nextID += 1
                case 1: objects[id] = nil; changed[id] = true
                case 2: objects[id]?.value = .random(in: 0..<20, using: &random); objects[id]?.version += 1; changed[id] = true
                case 3: objects[id]?.group = .random(in: 0..<5, using: &random); objects[id]?.version += 1; changed[id] = true
                case 4: objects[id]?.member.toggle(); changed[id] = true
                default: objects[id]?.version += 1; changed[id] = true
                }
            }
            return changed.keys.map { ResultsRowChange(id: $0, row: row($0), objectChanged: true) }
        }
    }

    private func checkCells(_ table: TableView, _ text: (IndexPath) -> String, _ context: String) {
        table.checkInvariants()
        for path in table.indexPathsForVisibleRows {
            #expect(table.cellForRow(at: path)?.textLabel?.text == text(path), "\(context): cell at \(path)")
        }
    }

    /// 800 random saves: each is applied by `apply`, the table scrolls now
    /// and then, and every visible cell must show `text` of its row.
    private func runRandomSaves(
        _ model: Model, _ table: TableView,
        apply: ([ResultsRowChange<Int, Int, Int>], Int) -> Void, text: (IndexPath) -> String
    ) {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed)
        var nextID = 0
        for save in 0..<800 {
            apply(model.randomSave(using: &random, nextID: &nextID), save)
            if Int.random(in: 0..<4, using: &random) == 0 { table.scroll(byLines: .random(in: -8...8, using: &random)) }
            checkCells(table, text, "save \(save)")
        }
    }

    private func makeTable() -> TableView {
        let table = TableView(viewportHeight: 12)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        return table
    }

    @Test func classicGlue_randomSavesNeverDesynchronise() {
        let model = Model()
        let table = makeTable()
        table.dataSource = model
        table.reloadData()
        let adapter = FetchedResultsTableAdapter(tableView: table)
        runRandomSaves(
            model, table, apply: { changes, _ in adapter.apply(model.engine.apply(changes)) },
            text: { model.text(model.engine.id(at: $0)) })
        #expect(adapter.refusals == 0, "\(adapter.lastRefusal?.message ?? "")")
    }

    @Test func diffable_randomSnapshotsNeverDesynchronise() {
        let model = Model()
        let table = makeTable()
        let dataSource = TableViewDiffableDataSource<Int, Int>(tableView: table) { table, path, id in
            let cell = table.dequeueReusableCell(withIdentifier: "Cell", for: path)
            cell.textLabel?.text = model.text(id)
            return cell
        }
        runRandomSaves(
            model, table,
            apply: { changes, save in
                _ = model.engine.apply(changes)
                var snapshot = TableSnapshot<Int, Int>(model.engine.snapshot().map { ($0.section, $0.ids) })
                let touched = changes.map(\.id)
                if save % 2 == 0 { snapshot.reconfigureItems(touched) } else { snapshot.reloadItems(touched) }
                dataSource.apply(snapshot)
                #expect(dataSource.snapshot() == snapshot.contentOnlyForTests, "save \(save)")
            }, text: { model.text(dataSource.itemIdentifier(for: $0)!) })
        #expect(dataSource.refusals == 0, "\(dataSource.lastRefusal?.message ?? "")")
    }

    @Test func diffable_movesKeepSelectionAndReloadsDropIt() throws {
        let table = TableView(viewportHeight: 10)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        let dataSource = TableViewDiffableDataSource<String, String>(tableView: table) { table, path, id in
            let cell = table.dequeueReusableCell(withIdentifier: "Cell", for: path)
            cell.textLabel?.text = id
            return cell
        }
        dataSource.headerTitle = { $0 }
        dataSource.apply(TableSnapshot([("A", ["a1", "a2", "a3"]), ("B", ["b1"])]))
        table.allowsMultipleSelection = true
        try table.selectRow(at: IndexPath(row: 0, section: 0))
        try table.selectRow(at: IndexPath(row: 0, section: 1))
        var next = TableSnapshot([("B", ["b1", "a1"]), ("A", ["a3", "a2"])])
        next.reloadItems(["b1"])
        dataSource.apply(next)
        #expect(dataSource.refusals == 0)
        #expect(table.indexPathsForSelectedRows == [IndexPath(row: 1, section: 0)])
        #expect(table.layoutItems().compactMap(\.title) == ["B", "A"])
        #expect(table.visibleCellsInOrder.map { $0.textLabel?.text } == ["b1", "a1", "a3", "a2"])
    }
}

extension TableSnapshot {
    /// The content without reconfigure or reload marks.
    var contentOnlyForTests: TableSnapshot {
        TableSnapshot(sectionIdentifiers.map { ($0, itemIdentifiers(inSection: $0)) })
    }
}
