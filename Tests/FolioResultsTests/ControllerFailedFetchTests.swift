import CSQLite
import Foundation
import Testing
import FolioResults
import FolioStore
import FolioTestSupport

/// A fetch that fails part way through reading the rows leaves the results
/// the controller had: it builds the new ones apart and takes them only
/// once the whole read succeeded.
@MainActor
@Suite struct ControllerFailedFetchTests {
    @Test func aFetchThatFailsMidReadKeepsThePreviousResults() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("zoo.sqlite")
        // Enough rows that the read streams them and then gives back its page cache.
        let rows = 12_000
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600, integrityCheckLimit: 0)
        let context = container.viewContext
        for i in 0..<rows {
            let animal = TestAnimal(context: context)
            animal.commonName = String(format: "Animal %05d", i)
            animal.habitat = ["Forest", "Savanna", "Reef"][i % 3]
        }
        try context.save()
        var request = FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.habitat), SortDescriptor(\.commonName)])
        request.fetchBatchSize = 20
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: \TestAnimal.habitat)
        try controller.performFetch()
        let before = controller.snapshot()
        #expect(before.itemIdentifiers.map(\.count) == [rows / 3, rows / 3, rows / 3])

        // The log folded into the file, then the back half of the animals' leaf pages (table and indexes) damaged:
        // the next read gets through the first half of the rows before it fails.
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        // A first read puts the connection in WAL mode; before it a checkpoint does nothing.
        #expect(sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", nil, nil, nil) == SQLITE_OK)
        #expect(sqlite3_wal_checkpoint_v2(db, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil) == SQLITE_OK)
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, "SELECT pageno FROM dbstat WHERE pagetype = 'leaf' AND name IN (SELECT name FROM sqlite_master WHERE tbl_name = 'TestAnimal') ORDER BY pageno", -1, &statement, nil)
        var leaves: [Int] = []
        while sqlite3_step(statement) == SQLITE_ROW { leaves.append(Int(sqlite3_column_int64(statement, 0))) }
        sqlite3_finalize(statement)
        sqlite3_close(db)
        #expect(leaves.count > 10)
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        for page in leaves[(leaves.count / 2)...] {
            try handle.seek(toOffset: UInt64((page - 1) * 4096))
            handle.write(Data((0..<64).map { UInt8(($0 * 37 + page) & 0xFF) }))
        }
        try handle.close()

        #expect(throws: StoreError.self) { try controller.performFetch() }
        let after = controller.snapshot()
        #expect(after.sectionIdentifiers == before.sectionIdentifiers)
        let unchanged = after.itemIdentifiers == before.itemIdentifiers
        #expect(unchanged, "a failed fetch changed the rows: \(after.itemIdentifiers.map(\.count)) after \(before.itemIdentifiers.map(\.count))")
        #expect(controller.sections?.map(\.numberOfObjects) == [rows / 3, rows / 3, rows / 3])
    }
}
