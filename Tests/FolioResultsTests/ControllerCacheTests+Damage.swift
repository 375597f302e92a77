import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioResults

/// Damage anywhere in a results cache file, however the results change
/// meanwhile: the relaunch either draws a verified first screen or falls
/// back to a fresh fetch, and never traps or shows a wrong row.
extension ControllerCacheTests.Relaunch {
    /// The parts of a cache file (see ``CacheLayout``), and two ways to change its length.
    enum Region: CaseIterable {
        case head, table, firstIDs, laterIDs, sums, keys, cutShort, extended
    }

    /// How many rows the user deletes, unsaved, before the table reads past its first screen.
    enum Deletion: CaseIterable {
        case none, some, all
    }

    /// The file's layout, read from its head as a relaunch reads it.
    func layout(of data: Data, context: ObjectContext) throws -> CacheLayout {
        let plan = try KeyPlan(request: controller(context).fetchRequest, sectionKeyPath: \ResultsItem.group, context: context)
        let text = try #require(ResultsCache.header(plan, context: context)).utf8.count
        var reader = CacheReader(bytes: Array(data[text..<text + CacheLayout.headFields * 8]))
        let head = (0..<CacheLayout.headFields).compactMap { _ in reader.int64() }
        return try #require(CacheLayout(textLength: text, head: head, fileSize: data.count))
    }

    func damage(_ data: inout Data, in region: Region, layout: CacheLayout, random: inout ResultsRandom) {
        let firstChunkEnd = layout.idsOffset + layout.chunkByteRange(0).count
        let bytes: Range<Int>
        switch region {
        case .head: bytes = 0..<layout.tableOffset
        case .table: bytes = layout.tableOffset..<layout.idsOffset
        case .firstIDs: bytes = layout.idsOffset..<firstChunkEnd
        case .laterIDs: bytes = firstChunkEnd..<layout.sumsOffset
        case .sums: bytes = layout.sumsOffset..<layout.keysOffset
        case .keys: bytes = layout.keysOffset..<layout.fileLength
        case .cutShort:
            data.removeLast(Int.random(in: 1...data.count, using: &random))
            return
        case .extended:
            data.append(contentsOf: (0..<Int.random(in: 1...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
            return
        }
        data[Int.random(in: bytes, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
    }

    /// Rows the table was told of, read through the controller as a scrolling
    /// data source does: each section's first and last and a few between.
    func readShownRows(_ harness: ResultsTableHarness<ResultsItem>, random: inout ResultsRandom) {
        let table = harness.table, controller = harness.controller
        var section = 0
        while section < table.numberOfSections {
            let count = table.numberOfRows(inSection: section)
            for row in [0, count - 1] + (0..<8).map({ _ in Int.random(in: 0..<count, using: &random) }) {
                // A read may find the order damaged and reload it: the table hears that at once.
                guard section < table.numberOfSections, row < table.numberOfRows(inSection: section) else { break }
                _ = controller.object(at: IndexPath(row: row, section: section))
            }
            section += 1
        }
    }

    /// Every region of the file damaged in turn, with none, some or all of
    /// the rows deleted (unsaved) before the table reads past its first
    /// screen, so that a fresh fetch made then finds fewer rows, or none.
    @Test func aDamagedCacheNeverShowsWrongRows() async throws {
        let damaging = try cacheToDamage("aDamagedCacheNeverShowsWrongRows")
        var random = damaging.random
        let (file, intact, container) = (damaging.file, damaging.intact, damaging.container)
        let context = container.viewContext
        context.undoManager = nil
        let layout = try layout(of: intact, context: context)
        let expected = try fresh(context)
        let everything: [ResultsItem] = try context.fetch(FetchRequest<ResultsItem>())
        var lazily = 0
        let rounds = Region.allCases.count * Deletion.allCases.count
        for round in 0..<rounds {
            await Task.yield()  // a turn for the other main-actor tests
            let region = Region.allCases[round % Region.allCases.count]
            let deletion = Deletion.allCases[round / Region.allCases.count % Deletion.allCases.count]
            let label = "round \(round) (\(region), \(deletion) deleted)"
            var data = intact
            damage(&data, in: region, layout: layout, random: &random)
            try data.write(to: file)
            let relaunched = controller(context)
            try relaunched.performFetch()
            let harness = ResultsTableHarness(controller: relaunched)
            if relaunched.isReadingCachedOrder {
                lazily += 1
                // What was drawn from the file is what a fresh fetch shows.
                #expect(relaunched.objects(inSection: 0).prefix(12).map(\.name) == Array(expected[0].prefix(12)), "\(label)")
            }
            switch deletion {
            case .none: break
            case .some: for item in everything where Bool.random(using: &random) { context.delete(item) }
            case .all: for item in everything { context.delete(item) }
            }
            readShownRows(harness, random: &random)
            context.processPendingChanges()
            relaunched.checkInvariants()  // loads the whole order
            let plain = controller(context, cache: nil)
            try plain.performFetch()
            let now = plain.snapshot()
            #expect(!relaunched.lastFetchUsedCache, "\(label): a damaged file was used whole")
            #expect(relaunched.snapshot() == now, "\(label)")
            #expect(harness.tableErrors.isEmpty, "\(label): \(harness.tableErrors)")
            #expect(harness.table.numberOfRowsInAllSections == now.itemIdentifiers.reduce(0) { $0 + $1.count }, "\(label)")
            context.rollback()
            ResultsCache.delete(name: "Relaunch")
        }
        print(
            "ControllerCacheTests.Relaunch.aDamagedCacheNeverShowsWrongRows: \(lazily) of \(rounds) damaged files drew their first screen")
    }

    /// The case a damaged file used to trap on: rows past the first chunk
    /// read after every row was deleted, so a fresh fetch found none.
    @Test func aCacheDamagedPastItsFirstChunkNeverTrapsWhenNoRowsAreLeft() throws {
        try launchOnce()
        let file = ResultsCache.file("Relaunch")
        var data = try Data(contentsOf: file)
        let container = try PersistentContainer(schema: ResultsTestSchema.make(), path: path)
        let context = container.viewContext
        let layout = try layout(of: data, context: context)
        let position = CacheLayout.chunkRows + 100
        data[layout.idsOffset + position * 8] ^= 0x5A
        try data.write(to: file)
        let relaunched = controller(context)
        try relaunched.performFetch()
        let harness = ResultsTableHarness(controller: relaunched)
        for item in try context.fetch(FetchRequest<ResultsItem>()) as [ResultsItem] { context.delete(item) }
        // The row at `position` in the file's order, as the table was told it.
        var section = 0, start = 0
        while start + harness.table.numberOfRows(inSection: section) <= position {
            start += harness.table.numberOfRows(inSection: section)
            section += 1
        }
        _ = relaunched.object(at: IndexPath(row: position - start, section: section))
        context.processPendingChanges()
        #expect(relaunched.sections?.count == 0)
        #expect(harness.table.numberOfSections == 0)
        #expect(harness.tableErrors.isEmpty, "\(harness.tableErrors)")
        relaunched.checkInvariants()
    }

    /// A cache of no rows is its header and head alone: every byte of it damaged in turn.
    @Test func everyByteOfACacheOfNoRowsIsChecked() async throws {
        let container = try PersistentContainer(schema: ResultsTestSchema.make(), path: path)
        let context = container.viewContext
        func none() -> FetchedResultsController<ResultsItem> {
            var request = FetchRequest<ResultsItem>(
                predicate: #Predicate { $0.group < 0 }, sortBy: [SortDescriptor(\.group), SortDescriptor(\.name)])
            request.fetchBatchSize = 20
            return FetchedResultsController(
                fetchRequest: request, managedObjectContext: context,
                sectionNameKeyPath: \ResultsItem.group, cacheName: "None")
        }
        try none().performFetch()
        let file = ResultsCache.file("None")
        let intact = try Data(contentsOf: file)
        let valid = none()
        try valid.performFetch()
        #expect(valid.lastFetchUsedCache && valid.sections?.count == 0)
        for index in 0..<intact.count {
            if index % 64 == 0 { await Task.yield() }
            var data = intact
            data[index] ^= 0x21
            try data.write(to: file)
            let relaunched = none()
            try relaunched.performFetch()
            let harness = ResultsTableHarness(controller: relaunched)
            #expect(!relaunched.lastFetchUsedCache, "byte \(index) of \(intact.count) damaged, the file was used")
            #expect(relaunched.sections?.count == 0 && harness.table.numberOfSections == 0, "byte \(index)")
            relaunched.checkInvariants()
        }
    }
}
