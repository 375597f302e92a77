import CSQLite
import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// A form's save that fails says why in the form's words and keeps the
    /// user's edit on screen; Done saves it once the cause is gone.
    @Suite struct FormSaveEndToEndTests {
        /// Another program's write transaction on the store, held until `release()`.
        final class WriteLock {
            private var db: OpaquePointer?

            init(_ path: String) throws {
                guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK,
                    sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK
                else {
                    let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
                    sqlite3_close(db)
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot lock \(path): \(message)"])
                }
            }

            func release() {
                sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
                sqlite3_close(db)
                db = nil
            }

            deinit { if db != nil { release() } }
        }

        @Test func editLocationOnALockedStoreKeepsTheEditAndSavesItLater() throws {
            let folio = try FolioBinary("locations")
            let app = try folio.launch(waitingFor: "Tag Location", columns: 100, rows: 30)
            defer { app.close() }
            try app.press("2")
            try app.waitFor("▸ Infinite Loop")
            try app.press("Enter")
            try app.waitFor("Edit Location")
            try app.press("Enter")  // Description
            try app.type(" West")
            try app.press("Enter")
            let lock = try WriteLock(folio.store)
            try app.press("e")  // waits out the store's busy timeout, then refuses
            try app.waitUntil("the save refused", timeout: 60) { $0.state["alert"] == "Not Saved" }
            let refused = app.text
            #expect(refused.contains("locked") && refused.contains("Nothing") && !refused.contains("✓"), "\(refused)")
            // The screen only ever shows its own store: the reason, not the file's path.
            let file = URL(fileURLWithPath: folio.store).lastPathComponent
            #expect(!refused.contains(file), "\(refused)")
            lock.release()
            try app.press("Enter")  // OK
            #expect(app.state["screen"] == "Edit Location", "the form stays: \(app.state)")
            #expect(app.text.contains("Infinite Loop West"), "the edit is still on screen: \(app.text)")
            #expect(try !folio.run("list").stdout.contains("Infinite Loop West"), "nothing was written")
            try app.press("e")
            try app.waitFor("Updated")
            #expect(try folio.run("list").stdout.contains("Infinite Loop West"))
        }
    }
}
