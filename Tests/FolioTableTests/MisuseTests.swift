import FolioTable
import Testing

/// Programmer misuse stops the process with UIKit's message (run in a child process).
struct MisuseTests {
    @Test func M1_dequeueForAnUnregisteredIdentifierStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                _ = TableView().dequeueReusableCell(withIdentifier: "Planet", for: IndexPath(row: 0, section: 0))
            }
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            output.contains(
                "unable to dequeue a cell with identifier Planet - must register a nib or a class for the identifier or connect a prototype cell in a storyboard"
            ))
    }

    @Test func rule_6_1_emptyIdentifierStops() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run { TableView().register(TableViewCell.self, forCellReuseIdentifier: "") }
        }
    }
}
