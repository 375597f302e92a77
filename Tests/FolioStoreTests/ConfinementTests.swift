import Dispatch
import FolioLocking
import Foundation
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

    /// Threads that wait for each other's lock: a `Mutex` would hand it over
    /// in the kernel, where ThreadSanitizer sees nothing, so under
    /// `scripts/sanitize thread` this fails (a reported race) unless the lock
    /// is one the sanitizer sees.
    @Test func aContendedLockedValueIsCleanUnderThreadSanitizer() {
        let counter = LockedValue(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<20_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 160_000)
    }

    /// A `Mutex` of its own would put a lock back where ThreadSanitizer is
    /// blind, and one that spins where threads outnumber cores.
    @Test func everyLockInThePackageIsALockedValue() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let mutex = try Regex(#"\bMutex\s*[<(]"#)
        var found: [String] = []
        for folder in ["Sources", "Tests"] {
            let files = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                let path = String(file.path.dropFirst(root.path.count + 1))
                guard path.hasSuffix(".swift"), !path.hasPrefix("Sources/FolioLocking/") else { continue }
                let text = try String(contentsOf: file, encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where line.contains(mutex) && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    found.append("\(path):\(number + 1)")
                }
            }
        }
        #expect(found.isEmpty, "use LockedValue: \(found.joined(separator: ", "))")
    }
}
