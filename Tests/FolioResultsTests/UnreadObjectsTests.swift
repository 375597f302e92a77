import Testing

@testable import FolioResults

/// The objects a controller could not read, on their own: held merged,
/// taken with the next batch, and one retry scheduled at a time.
@Suite struct UnreadObjectsTests {
    @Test func heldObjectsAreMergedByIDAndTakenOnce() {
        var unread = UnreadObjects()
        let schedulesForNothing = unread.hold([])
        #expect(!schedulesForNothing, "nothing held, no retry")
        _ = unread.hold([(7, false), (3, true), (7, true)])
        _ = unread.hold([(3, false), (5, false)])
        #expect(unread.candidates.map(\.id) == [3, 5, 7])
        #expect(unread.candidates.map(\.changed) == [true, false, true])
        let taken = unread.take(), again = unread.take()
        #expect(taken.map(\.id) == [3, 5, 7])
        #expect(unread.isEmpty && again.isEmpty)
    }

    @Test func oneRetryIsScheduledAtATime() {
        var unread = UnreadObjects()
        let first = unread.hold([(1, true)]), second = unread.hold([(2, true)])
        #expect(first, "the first objects held schedule a retry")
        #expect(!second, "a retry is scheduled already")
        let came = unread.retryCame()
        #expect(came, "objects are still held for the retry to read")
        let third = unread.hold([(3, true)])
        #expect(third, "after a retry came, holding schedules another")
        _ = unread.take()
        let cameForNothing = unread.retryCame()
        #expect(!cameForNothing, "a retry with nothing held reads nothing")
        unread.removeAll()
        #expect(unread.isEmpty)
    }
}
