import FolioTestSupport
import Foundation
import Testing

/// Waiting for a program never happens on the main actor: there it is
/// refused with a clear error, and its async form waits on a thread of its
/// own while the main actor takes other turns.
@Suite struct BlockingWorkTests {
    let sleeper = URL(fileURLWithPath: "/bin/sleep")

    @MainActor @Test func aProgramWaitedForOnTheMainActorIsRefused() {
        #expect(throws: BlockingWorkError.self) { try AppProcess.run(sleeper, ["0"]) }
    }

    @Test func offTheMainActorAProgramIsWaitedFor() throws {
        #expect(try AppProcess.run(sleeper, ["0"]).status == 0)
    }

    /// The program ends well only once the main actor has made a file, which
    /// it can do only while the program runs. It gives up after ten minutes:
    /// in a full run on a busy machine the main actor is shared by every
    /// main-actor test, and its turn has come after more than a minute.
    @MainActor @Test func theMainActorTakesTurnsWhileItsProgramRuns() async throws {
        let dir = try StoreTemporaryDirectory()
        let signal = dir.path("go")
        let waiting = Task { @MainActor in
            try await BlockingWork.run {
                try AppProcess.run(
                    URL(fileURLWithPath: "/bin/sh"),
                    ["-c", "i=0; while [ ! -e '\(signal)' ]; do i=$((i+1)); [ $i -gt 60000 ] && exit 1; sleep 0.01; done"])
            }
        }
        try await Task.sleep(for: .milliseconds(10))
        #expect(FileManager.default.createFile(atPath: signal, contents: nil))
        #expect(try await waiting.value.status == 0, "the program ran out of time: the main actor was not free")
    }
}
