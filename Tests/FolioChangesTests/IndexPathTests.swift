import FolioChanges
import Testing

/// UIKit's additions to Foundation's `IndexPath`: two indexes, section first.
@Suite struct IndexPathTests {
    @Test func ordersBySectionThenRow() {
        let paths = [IndexPath(row: 0, section: 1), IndexPath(row: 5, section: 0), IndexPath(row: 2, section: 0)]
        #expect(paths.sorted() == [IndexPath(row: 2, section: 0), IndexPath(row: 5, section: 0), IndexPath(row: 0, section: 1)])
    }

    @Test func printsAsSectionAndRow() {
        #expect(IndexPath(row: 3, section: 0).description == "[0, 3]")
        #expect("\(IndexPath(item: 7, section: 12))" == "[12, 7]")
    }

    @Test func isFoundationsPathOfTwoIndexes() {
        let path = IndexPath(row: 3, section: 1)
        #expect(path == IndexPath(indexes: [1, 3]))
        #expect(Array(path) == [1, 3])
        #expect(IndexPath(indexes: [4, 2]).row == 2)
        #expect(IndexPath(indexes: [4, 2]).section == 4)
    }

    @Test func itemIsTheRow() {
        var path = IndexPath(row: 1, section: 2)
        path.item = 4
        #expect(path.row == 4)
        #expect(path == IndexPath(item: 4, section: 2))
        #expect(Set([path, IndexPath(row: 4, section: 2)]).count == 1)
        path.section = 0
        #expect(path == IndexPath(row: 4, section: 0))
    }

    @Test func aRowOfAPathWithoutTwoIndexesStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = IndexPath(indexes: [1, 2, 3]).row
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("IndexPath.row: [1, 2, 3] has 3 indexes"))
    }

    @Test func aSectionOfAPathWithOneIndexStops() async {
        await #expect(processExitsWith: .failure) {
            _ = IndexPath(index: 5).section
        }
    }
}
