import FolioStore
import Testing

@testable import FolioPostgres

/// A process's feeds read the history from one window of rows, with the
/// stored rows read once for all of them. The window is trimmed, but never
/// of rows a feed has still to read (up to a hard limit): a feed left
/// before the window reads the server itself, and each of its containers
/// reads every row the changes name, which kept the clients of a burst behind.
@Suite struct PostgresFeedWindowTests {
    /// A state whose window holds rows 1...count, with feeds at `positions` (nil: not registered).
    func state(rows count: Int, positions: [Int64?]) -> PostgresFeedHub.State {
        var s = PostgresFeedHub.State()
        s.window.rows = (1...Int64(count)).map { .init(position: $0, author: "elsewhere", changes: ChangeSet(origin: .otherProcess)) }
        s.window.start = 0
        s.window.through = Int64(count)
        for (id, position) in positions.enumerated() { s.subscribers[id] = .init(reader: "feed \(id)", position: position) }
        return s
    }

    func kept(_ s: PostgresFeedHub.State) -> (first: Int64?, count: Int, start: Int64) {
        (s.window.rows.first?.position, s.window.rows.count, s.window.start)
    }

    @Test func rowsEveryFeedHasReadGoDownToHalfTheLimit() {
        var s = state(rows: 30_000, positions: [29_000, 29_500])
        s.trimWindow(before: 29_990)
        #expect(kept(s) == (20_001, 10_000, 20_000))
    }

    @Test func rowsTheReadBroughtStay() {
        var s = state(rows: 30_000, positions: [])
        s.trimWindow(before: 4_000)
        #expect(kept(s) == (4_001, 26_000, 4_000))
    }

    @Test func rowsAFeedHasStillToReadStay() {
        var s = state(rows: 30_000, positions: [2_000, nil, 29_000])
        s.trimWindow(before: 29_000)
        #expect(kept(s) == (2_001, 28_000, 2_000))
    }

    @Test func theHardLimitHoldsWhateverAFeedHasStillToRead() {
        let total = PostgresFeedHub.windowHardLimit + 5_000
        var s = state(rows: total, positions: [0])
        s.trimWindow(before: Int64(total))
        #expect(kept(s) == (5_001, PostgresFeedHub.windowHardLimit, 5_000))
    }

    /// Feeds at one position that wrote none of the rows are served one
    /// read, built once; a feed that wrote one of them, a feed elsewhere, a
    /// save of the process or a new read of the server builds another.
    @Test func feedsAtOnePositionShareOneServedRead() {
        let a = ObjectID(entityName: "Note", rowID: 1), b = ObjectID(entityName: "Note", rowID: 2)
        var s = PostgresFeedHub.State()
        var values = HeardRows()
        values.set(a, nil)
        values.set(b, nil)
        s.window.rows = [
            .init(position: 5, author: "writer", changes: ChangeSet(inserted: [a], origin: .otherProcess), values: values),
            .init(position: 6, author: "feed 2", changes: ChangeSet(inserted: [b], origin: .otherProcess), values: values),
        ]
        s.window.start = 0
        s.window.through = 6
        s.window.readUptime = 1

        let first = s.serve(after: 0, reader: "feed 0"), second = s.serve(after: 0, reader: "feed 1")
        #expect(s.servedBuilt == 1, "built once for both")
        for read in [first, second] {
            #expect(read?.rows.map(\.changes.inserted) == [[a], [b]])
            #expect(read?.heard?.count == 2 && read?.latest == 6)
        }
        let own = s.serve(after: 0, reader: "feed 2")
        #expect(own?.rows.map(\.changes.inserted) == [[a], []], "its own save's changes left empty")
        #expect(own?.heard?.count == 1, "only what the others' changes name")
        #expect(s.serve(after: 0, reader: "feed 3")?.rows.count == 2 && s.servedBuilt == 2, "the shared read stays")
        #expect(s.serve(after: 5, reader: "feed 3")?.rows.map(\.changes.inserted) == [[b]] && s.servedBuilt == 3)
        s.ownSaves += 1
        #expect(
            s.serve(after: 5, reader: "feed 4")?.heard == nil && s.servedBuilt == 4,
            "rows read before a save of the process are not handed on")
        s.window.readUptime = 2
        _ = s.serve(after: 5, reader: "feed 4")
        #expect(s.servedBuilt == 5, "a new read of the server")
        #expect(s.serve(after: 7, reader: "feed 4") == nil, "past the window")
    }
}
