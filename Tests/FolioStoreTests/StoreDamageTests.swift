import CSQLite
import Foundation
import Testing
@testable import FolioStore
import FolioTestSupport

/// Finding 7 (damaged files): damage found at open, in a read or in a save
/// stops every later write of the container and says so; the file is not
/// written from that moment on.
@MainActor
@Suite struct StoreDamageTests {
    /// A small store (a few dozen pages), closed, with its log folded in.
    func makeStore(_ path: String) throws {
        weak var released: PersistentContainer?
        try fill(path) { released = $0 }
        #expect(released == nil, "the container outlived its scope")
        foldLog(path)
    }

    func fill(_ path: String, _ keep: (PersistentContainer) -> Void) throws {
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
        keep(container)
        let c = container.viewContext
        for i in 0..<120 {
            let cls = TestClassification(context: c)
            cls.order = "Order \(i % 7)"
            cls.family = "Family \(i)"
            let a = TestAnimal(context: c)
            a.commonName = "Animal \(i) " + String(repeating: "x", count: 100)
            a.classification = cls
        }
        try c.save()
    }

    func foldLog(_ path: String) {
        // No poller (it could hold the container past this scope); the log folded in now, so
        // the damage below is in the pages every reader reads.
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        // A first read puts the connection in WAL mode; before it a checkpoint does nothing.
        #expect(sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", nil, nil, nil) == SQLITE_OK)
        #expect(sqlite3_wal_checkpoint_v2(db, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil) == SQLITE_OK)
        sqlite3_close(db)
        #expect((StoreFile.size(of: path + "-wal") ?? 0) == 0)
    }

    func damage(_ path: String, page: Int, pageSize: Int = 4096) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(page * pageSize))
        // The page's header and cell pointers, the part every reader of the page relies on.
        handle.write(Data((0..<64).map { UInt8(($0 * 37 + page) & 0xFF) }))
    }

    @Test func everyDetectableDamagedPageIsFoundBeforeAnythingIsWritten() throws {
        let dir = try StoreTemporaryDirectory()
        let pristine = dir.path("pristine.sqlite")
        try makeStore(pristine)
        let pages = (StoreFile.size(of: pristine) ?? 0) / 4096
        #expect(pages > 10)
        var found = 0
        for page in 1..<pages {
            let path = dir.path("damaged-\(page).sqlite")
            try FileManager.default.copyItem(atPath: pristine, toPath: path)
            try damage(path, page: page)
            let damaged = integrityCheck(path) != "ok"
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            var failure: StoreError?
            do {
                let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
                TestAnimal(context: container.viewContext).commonName = "Newcomer"
                try container.viewContext.save()
            } catch let error as StoreError {
                failure = error
            }
            guard damaged else { continue }
            found += 1
            guard case .corrupt(let named, _)? = failure else {
                Issue.record("page \(page): expected a damaged-store error, got \(String(describing: failure))")
                continue
            }
            #expect(named == path)
            #expect("\(failure!)".contains("nothing more is written"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "page \(page) was written")
            #expect((StoreFile.size(of: path + "-wal") ?? 0) == 0, "page \(page): the log holds writes")
        }
        #expect(found >= pages / 2, "only \(found) of \(pages) damaged pages were detectable")
    }

    /// Past the size checked at open (here every size), damage is found when
    /// a page is read; from then on no save, write transaction or checkpoint writes.
    @Test func damageFoundInAReadStopsEveryLaterWrite() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("zoo.sqlite")
        try makeStore(path)
        // The animals' leaf pages: opening reads none of them, fetching the animals reads them all.
        var db: OpaquePointer?
        #expect(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK)
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, "SELECT pageno FROM dbstat WHERE name = 'TestAnimal' AND pagetype = 'leaf'", -1, &statement, nil)
        var leaves: [Int] = []
        while sqlite3_step(statement) == SQLITE_ROW { leaves.append(Int(sqlite3_column_int64(statement, 0))) }
        sqlite3_finalize(statement)
        sqlite3_close(db)
        #expect(leaves.count > 1)
        for page in leaves { try damage(path, page: page - 1) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        var log = Data()
        do {
            let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600, integrityCheckLimit: 0)
            let c = container.viewContext
            #expect(throws: StoreError.self) { _ = try c.fetch(FetchRequest<TestAnimal>()).map(\.commonName) }
            // Opening wrote its reader row to the log before anything was known; nothing is written after.
            log = FileManager.default.contents(atPath: path + "-wal") ?? Data()
            let zoo = TestZoo(context: c)
            zoo.name = "Lowry Park"
            for attempt in ["save", "performWrite"] {
                do {
                    if attempt == "save" { try c.save() } else { try c.performWrite { TestZoo(context: c).name = "San Diego" } }
                    Issue.record("\(attempt) wrote to a damaged store")
                } catch StoreError.corrupt(let named, _) {
                    #expect(named == path)
                } catch {
                    Issue.record("\(attempt): \(error)")
                }
            }
        }
        // Closed without a checkpoint: the file is as it was, the log as it was when the damage was found.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(FileManager.default.contents(atPath: path + "-wal") ?? Data() == log)
    }
}
