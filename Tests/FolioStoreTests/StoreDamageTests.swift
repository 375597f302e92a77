import FolioTestSupport
import Foundation
import Testing

@testable import FolioStore

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
        #expect(StoreFileDamage.foldLog(path))
        #expect((StoreFile.size(of: path + "-wal") ?? 0) == 0)
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
            try StoreFileDamage.damage(path, page: page + 1)
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
        let leaves = StoreFileDamage.leafPages(path, of: "TestAnimal")
        #expect(leaves.count > 1)
        for page in leaves { try StoreFileDamage.damage(path, page: page) }
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
