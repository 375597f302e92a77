import Testing
import FolioResults

@Suite struct IndexPathTests {
    @Test func ordersBySectionThenRow() {
        let paths = [IndexPath(row: 0, section: 1), IndexPath(row: 5, section: 0), IndexPath(row: 2, section: 0)]
        #expect(paths.sorted() == [IndexPath(row: 2, section: 0), IndexPath(row: 5, section: 0), IndexPath(row: 0, section: 1)])
    }

    @Test func printsAsSectionAndRow() {
        #expect(IndexPath(row: 3, section: 0).description == "[0, 3]")
        #expect("\(IndexPath(item: 7, section: 12))" == "[12, 7]")
    }

    @Test func itemIsTheRow() {
        var path = IndexPath(row: 1, section: 2)
        path.item = 4
        #expect(path.row == 4)
        #expect(path == IndexPath(item: 4, section: 2))
        #expect(Set([path, IndexPath(row: 4, section: 2)]).count == 1)
    }
}
