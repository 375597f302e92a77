import FolioTable
import FolioTableTestSupport
import Testing

/// docs/table-view-rules.md §6: registration, dequeue, reuse, styles.
@MainActor
struct CellReuseTests {
    final class BadgeCell: TableViewCell {
        var badge: String?
        var prepared = 0
        override func prepareForReuse() {
            super.prepareForReuse()
            prepared += 1
            badge = nil
        }
        override func customLines() -> [String]? { [textLabel?.text ?? "", badge ?? "-"] }
    }

    @Test func rule_6_1_registerReplacesAndNilUnregisters() {
        let table = TableView()
        table.register(TableViewCell.self, forCellReuseIdentifier: "A")
        table.register(BadgeCell.self, forCellReuseIdentifier: "A")
        #expect(table.dequeueReusableCell(withIdentifier: "A") is BadgeCell)
        table.register(nil, forCellReuseIdentifier: "A")
        #expect(table.dequeueReusableCell(withIdentifier: "A") == nil)
    }

    @Test func rule_6_2_dequeueWithoutRegistrationIsNil() {
        #expect(TableView().dequeueReusableCell(withIdentifier: "Nothing") == nil)
    }

    @Test func rule_6_4_classCellsUseDefaultStyleWithoutDetail() {
        let table = TableView()
        table.register(TableViewCell.self, forCellReuseIdentifier: "A")
        let cell = table.dequeueReusableCell(withIdentifier: "A", for: IndexPath(row: 0, section: 0))
        #expect(cell.style == .default)
        #expect(cell.detailTextLabel == nil)
        #expect(cell.reuseIdentifier == "A")
    }

    @Test func rule_6_5_onlyRecycledCellsArePrepared() {
        let source = TableCountsDataSource([100])
        let table = TableView(viewportHeight: 5)
        table.register(BadgeCell.self, forCellReuseIdentifier: "Cell")
        table.dataSource = source
        table.reloadData()
        let first = table.visibleCellsInOrder.compactMap { $0 as? BadgeCell }
        #expect(first.count == 5)
        #expect(first.allSatisfy { $0.prepared == 0 })
        first[0].badge = "!"
        table.scroll(byLines: 1)
        let reused = table.cellForRow(at: IndexPath(row: 5, section: 0)) as? BadgeCell
        #expect(reused === first[0])
        #expect(reused?.prepared == 1)
        #expect(reused?.badge == nil)
        #expect(reused?.customLines() == ["0.5", "-"])
        #expect(table.createdCellCount == 5)
    }

    @Test func rule_6_7_stylesAndDetailLabels() {
        #expect(TableViewCell.Style.allCases.map(\.rawValue) == [0, 1, 2, 3])
        for style in TableViewCell.Style.allCases {
            let cell = TableViewCell(style: style, reuseIdentifier: nil)
            #expect((cell.detailTextLabel == nil) == (style == .default))
        }
    }

    @Test func rule_6_8_accessoriesAndTheEditingAccessory() {
        let cell = TableViewCell(style: .value1, reuseIdentifier: nil)
        cell.accessoryType = .disclosureIndicator
        cell.editingAccessoryType = .checkmark
        #expect(cell.currentAccessoryType == .disclosureIndicator)
        cell.setEditing(true, animated: false)
        #expect(cell.currentAccessoryType == .checkmark)
        #expect(TableViewCell.AccessoryType.allCases.filter(\.hasDetailButton) == [.detailDisclosureButton, .detailButton])
    }

    @Test func textFieldCell_editingCommitsOrRestores() {
        let cell = TextFieldCell(style: .default, reuseIdentifier: "Name")
        var committed: [String] = []
        cell.text = "Zerg rush"
        cell.onCommit = { committed.append($0) }
        cell.beginEditingText()
        cell.text = "Zerg"
        cell.endEditingText(commit: false)
        #expect(cell.text == "Zerg rush")
        cell.beginEditingText()
        cell.text += "!"
        cell.endEditingText(commit: true)
        #expect(committed == ["Zerg rush!"])
        cell.prepareForReuse()
        #expect(cell.text.isEmpty && cell.onCommit == nil)
    }

    @Test func reuse_aMillionRowsCreateOnlyVisibleCells() {
        let source = TableCountsDataSource([1_000_000])
        let table = source.makeTable(viewportHeight: 40)
        #expect(table.indexPathsForVisibleRows.count == 40)
        for _ in 0..<50 { table.scroll(byLines: 37) }
        try? table.scrollToRow(at: IndexPath(row: 999_999, section: 0), at: .bottom)
        #expect(table.indexPathsForVisibleRows.last == IndexPath(row: 999_999, section: 0))
        #expect(table.cellForRow(at: IndexPath(row: 999_999, section: 0))?.textLabel?.text == "0.999999")
        #expect(table.createdCellCount <= 40 + 2)
        #expect(source.cellRequests < 40 * 52)
        table.checkInvariants()
    }
}

extension CellReuseTests {
    /// The pre-registration pattern: dequeue, else make a cell yourself.
    @MainActor final class ManualSource: TableViewDataSource {
        var made = 0
        func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { 1_000 }
        func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
            let cell =
                tableView.dequeueReusableCell(withIdentifier: "Manual")
                ?? {
                    made += 1
                    return TableViewCell(style: .value1, reuseIdentifier: "Manual")
                }()
            cell.textLabel?.text = "\(indexPath.row)"
            return cell
        }
    }

    @Test func rule_6_2_unregisteredCellsAreReusedByIdentifier() {
        let source = ManualSource()
        let table = TableView(viewportHeight: 10)
        table.dataSource = source
        for _ in 0..<20 { table.scroll(byLines: 7); _ = table.layoutItems() }
        #expect(source.made <= 10 + 7)
        #expect(table.visibleCellsInOrder.allSatisfy { $0.style == .value1 })
    }
}
