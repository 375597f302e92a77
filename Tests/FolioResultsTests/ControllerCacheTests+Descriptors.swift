import FolioStore
import FolioTestSupport
import Foundation
import Synchronization
import Testing

@testable import FolioResults

extension ControllerCacheTests.Relaunch {
    /// A relaunch that finds its cache damaged closes the file it opened once.
    /// Closed twice, the second close ends whatever the process opened under
    /// that number meanwhile (in a full test run, a child process's pipe: the
    /// child died of SIGPIPE and its output ended early). A thread opening and
    /// closing pipes throughout sees its own close fail if that happens.
    @Test func aDamagedCacheClosesOnlyItsOwnFile() async throws {
        let damaging = try cacheToDamage("aDamagedCacheClosesOnlyItsOwnFile")
        var random = damaging.random
        let (file, intact, container) = (damaging.file, damaging.intact, damaging.container)
        let stolen = Atomic<Int>(0), stop = Atomic<Bool>(false), stopped = Atomic<Bool>(false)
        Thread.detachNewThread {
            var ends: [Int32] = [0, 0]
            while !stop.load(ordering: .relaxed) {
                guard pipe(&ends) == 0 else { continue }
                for end in ends where close(end) != 0 && errno == EBADF { stolen.add(1, ordering: .relaxed) }
            }
            stopped.store(true, ordering: .relaxed)
        }
        for round in 0..<100 {
            if round % 8 == 0 { await Task.yield() }  // a turn for the other main-actor tests
            var data = intact
            // The head and the first IDs: most such damage is found before anything is drawn.
            let at = Int.random(in: 0..<min(data.count, 4096), using: &random)
            data[at] ^= UInt8.random(in: 1...255, using: &random)
            try data.write(to: file)
            let relaunched = controller(container.viewContext)
            try relaunched.performFetch()
            relaunched.checkInvariants()
            ResultsCache.delete(name: "Relaunch")
        }
        stop.store(true, ordering: .relaxed)
        while !stopped.load(ordering: .relaxed) { await Task.yield() }
        #expect(stolen.load(ordering: .relaxed) == 0, "a relaunch closed descriptors it did not own")
    }
}
