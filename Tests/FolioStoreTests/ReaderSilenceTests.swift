import CSQLite
import FolioTestSupport
import Foundation
import Testing

@testable import FolioStore

/// A reader that stops for longer than the silence limit (Ctrl-Z) is
/// dropped and its unread history trimmed; when it continues it learns
/// that, reloads, and hears every later save.
@MainActor
@Suite(.serialized) struct ReaderSilenceTests {
    /// Rows in `folio_history` and `folio_readers`, read through a connection of the test's own.
    func counts(_ path: String) -> (history: Int, readers: Int) {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return (-1, -1) }
        defer { sqlite3_close(db) }
        func count(_ table: String) -> Int {
            var s: OpaquePointer?
            guard sqlite3_prepare_v2(db, "SELECT count(*) FROM \(table)", -1, &s, nil) == SQLITE_OK else { return -1 }
            defer { sqlite3_finalize(s) }
            return sqlite3_step(s) == SQLITE_ROW ? Int(sqlite3_column_int64(s, 0)) : -1
        }
        return (count("folio_history"), count("folio_readers"))
    }

    func insert(_ name: String, in container: PersistentContainer) throws -> ObjectID {
        let a = TestAnimal(context: container.viewContext)
        a.commonName = name
        try container.viewContext.save()
        return a.objectID
    }

    @Test func aReaderStoppedPastTheSilenceLimitReloadsThenHearsLaterSaves() async throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("paused.sqlite")
        let mine = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
        // A limit long enough that the check within it survives a loaded
        // machine's delays (the child heartbeats every limit / 4).
        let limit = 6.0
        mine.setReaderSilenceLimit(limit)
        _ = try insert("Seed", in: mine)
        let child = try StoreChildProcess(
            executable: StoreChildProcess.sibling("folio-store-worker"), arguments: ["watch", path, "\(limit)"])
        #expect(await child.waitForLine { $0 == "ready" } != nil)
        #expect(await waitUntil { counts(path).readers == 2 }, "the child registered as a reader")

        // Taken before the stop: the wait for the kernel to report it can be slow.
        let stoppedAt = Date()
        #expect(await child.suspend(), "the child did not stop")
        // Within the limit, the stopped reader still holds its unread history.
        let missed = try insert("Missed", in: mine)
        mine.checkForExternalChanges()
        let historyWithinTheLimit = counts(path).history
        // Its last heartbeat came at most limit / 4 before the stop, so it is
        // surely within the limit this long after the stop.
        if Date().timeIntervalSince(stoppedAt) < limit * 3 / 4 {
            #expect(historyWithinTheLimit >= 1, "a stopped reader within the limit lost its history")
        } else {
            print("ReaderSilenceTests: the check within the limit came too late to judge on this machine")
        }
        // Past the limit it is dropped, and what it did not read is trimmed.
        try await Task.sleep(for: .seconds(limit + 1))
        let alsoMissed = try insert("Also missed", in: mine)
        mine.checkForExternalChanges()
        #expect(counts(path) == (0, 1), "history and readers after the trim: \(counts(path))")

        child.resume()
        let reload = await child.waitForLine { $0 == "reload" }
        #expect(reload != nil, "the continued reader learnt that it missed saves: \(child.lines.map(\.line))")
        let missedNames = ["heard \(missed)", "heard \(alsoMissed)"]
        #expect(
            child.lines.allSatisfy { !missedNames.contains($0.line) },
            "a trimmed save was heard: \(child.lines.map { "\($0.line) at \($0.at.timeIntervalSince(stoppedAt))" })")
        let later = try insert("Later", in: mine)
        let heard = await child.waitForLine { $0 == "heard \(later)" }
        #expect(heard != nil, "a save after the reload is heard: \(child.lines.map(\.line))")
        #expect(await waitUntil { counts(path).readers == 2 }, "the reader registered again")
        await child.finish()
    }

    /// What a context does with a reload: unchanged objects read the store
    /// again, changed ones keep their changes and adopt the rest.
    @Test func aReloadRefaultsUnchangedObjectsAndKeepsChanges() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("reload.sqlite")
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
        let c = container.viewContext
        let tapir = TestAnimal(context: c), okapi = TestAnimal(context: c)
        tapir.commonName = "Tapir"
        okapi.commonName = "Okapi"
        try c.save()
        okapi.habitat = "Forest, edited here"
        // Another program changes both rows without a history row Folio could read.
        var other: OpaquePointer?
        #expect(sqlite3_open_v2(path, &other, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK)
        defer { sqlite3_close(other) }
        sqlite3_busy_timeout(other, 5000)  // the container may be recording its reader position
        #expect(sqlite3_exec(other, "UPDATE TestAnimal SET commonName = commonName || ' (renamed)'", nil, nil, nil) == SQLITE_OK)
        // The unsaved edit is reported on its own first, as any merge processes pending changes.
        c.processPendingChanges()
        var heard: [ChangeSet] = []
        let token = c.observeChanges { heard.append($0) }
        c.merge(.reload(origin: .otherProcess))
        #expect(heard.map(\.isReload) == [true])
        #expect(tapir.isFault)
        #expect(tapir.commonName == "Tapir (renamed)")
        #expect(okapi.commonName == "Okapi (renamed)")
        #expect(okapi.habitat == "Forest, edited here")
        #expect(okapi.changedKeys == ["habitat"])
        c.checkInvariants()
        token.cancel()
    }
}
