import Dispatch
import FolioLocking
import Testing

@testable import FolioStore

/// State confined to a queue or owned by a lock can be reached only the
/// way its type allows: a use from elsewhere stops the program (debug
/// builds) rather than racing.
@Suite struct ConfinementTests {
    @Test func aConfinedValueIsUsedOnItsQueue() {
        let queue = DispatchQueue(label: "folio.test.confined")
        var count = QueueConfined(wrappedValue: 0, on: queue)
        queue.sync {
            count.wrappedValue += 2
            #expect(count.wrappedValue == 2)
        }
    }

    #if DEBUG  // the check costs nothing, and so does nothing, in release builds
        @Test func aConfinedValueUsedOffItsQueueStopsTheProgram() async {
            await #expect(processExitsWith: .failure) {
                let queue = DispatchQueue(label: "folio.test.confined")
                let count = QueueConfined(wrappedValue: 0, on: queue)
                _ = count.wrappedValue
            }
        }
    #endif

    @Test func aLockedValueIsChangedOnlyUnderItsLock() async {
        let counter = LockedValue(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<1_000 { counter.withLock { $0 += 1 } } }
            }
        }
        #expect(counter.withLock { $0 } == 8_000)
    }
}
