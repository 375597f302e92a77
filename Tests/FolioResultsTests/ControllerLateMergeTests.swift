import Dispatch
import FolioResults
import FolioTestSupport
import Foundation
import Testing

@testable import FolioStore

/// A context that merges late (its main thread was busy) may read the store
/// for one change set after the rows heard with the next were read: those
/// rows are older than what it read, and it reads the store again rather
/// than use them, so its controllers never go back in time. Before, a row
/// that a merge had found gone came back from the next change set's older
/// row, and the controller reported it inserted a second time.
@MainActor
@Suite struct ControllerLateMergeTests {
    func names(_ controller: FetchedResultsController<ResultsItem>) -> [[String]] {
        (0..<(controller.sections?.count ?? 0)).map { controller.objects(inSection: $0).map(\.name) }
    }

    /// The stored row of `item` as its context holds it, heard from a read that began at `readStart`.
    func heard(_ item: ResultsItem, readStart: UInt64) -> HeardRows {
        let entity = item.meta
        let values: [String: StoreValue] = ["name": .text(item.name), "group": .integer(Int64(item.group))]
        let row = StoredRow(
            attributes: entity.attributes.map { values[$0.name] ?? .null }, toOnes: entity.toOnes.map { _ in nil }, version: item.version)
        var rows = HeardRows(readStart: readStart)
        rows.describe(entity)
        rows.set(item.objectID, row)
        return rows
    }

    /// A writer that saved Ant and Bee in group 1, and a reader on the same file with a controller sectioned by group.
    func antAndBee(in dir: StoreTemporaryDirectory) throws -> (
        writer: PersistentContainer, reader: PersistentContainer, results: FetchedResultsController<ResultsItem>
    ) {
        let path = dir.path("late.sqlite")
        let writer = try PersistentContainer(schema: ResultsTestSchema.make(), path: path)
        for name in ["Ant", "Bee"] {
            let item = ResultsItem(context: writer.viewContext)
            item.name = name
            item.group = 1
        }
        try writer.viewContext.save()
        let reader = try PersistentContainer(schema: ResultsTestSchema.make(), path: path)
        let results = FetchedResultsController(
            fetchRequest: FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.group), SortDescriptor(\.name)]),
            managedObjectContext: reader.viewContext, sectionNameKeyPath: \ResultsItem.group, cacheName: nil)
        try results.performFetch()
        return (writer, reader, results)
    }

    @Test func aRowHeardBeforeTheContextsLastStoreReadIsNotUsed() throws {
        let dir = try StoreTemporaryDirectory()
        let (writer, reader, results) = try antAndBee(in: dir)
        let recorder = ResultsRecordingDelegate<ResultsItem>(describe: \.name)
        results.delegate = recorder

        // Another process moves Ant to group 2; the feed reads its row; then Ant is deleted.
        let ant = try #require(try writer.viewContext.fetch(FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.name)])).first)
        ant.group = 2
        try writer.viewContext.save()
        let antID = ant.objectID
        let moved = heard(ant, readStart: DispatchTime.now().uptimeNanoseconds)
        writer.viewContext.delete(ant)
        try writer.viewContext.save()

        // The reader merges late, in this same turn: the move's change set
        // without rows (it reads the store: Ant is gone), then a later change
        // of Ant with the row read before that.
        reader.viewContext.merge(ChangeSet(updated: [antID: ["group"]], origin: .otherProcess), heard: nil)
        #expect(names(results) == [["Bee"]], "\(names(results))")
        reader.viewContext.merge(ChangeSet(updated: [antID: ["group"]], origin: .otherProcess), heard: moved)

        #expect(names(results) == [["Bee"]], "the older row brought Ant back: \(names(results)), \(recorder.lines)")
        #expect(recorder.lines.filter { $0.hasPrefix("insert") }.isEmpty, "\(recorder.lines)")
        #expect(recorder.lines.filter { $0.hasPrefix("delete") }.count == 1, "\(recorder.lines)")

        // Rows read after the context's last store read are still used: no read of the store for them.
        let bee = try #require(try writer.viewContext.fetch(FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.name)])).first)
        bee.group = 3
        try writer.viewContext.save()
        let fresh = heard(bee, readStart: DispatchTime.now().uptimeNanoseconds)
        bee.group = 4
        try writer.viewContext.save()
        reader.viewContext.merge(ChangeSet(updated: [bee.objectID: ["group"]], origin: .otherProcess), heard: fresh)
        #expect(names(results) == [["Bee"]] && results.sections?.first?.name == "3", "\(results.sections?.map(\.name) ?? [])")
        withExtendedLifetime((writer, reader)) {}
    }

    /// A merge that reads its own rows from the store (they were not heard)
    /// makes only those rows' heard copies too old: another object's heard
    /// row, read before, is still used. Before, any read of the store did,
    /// and a context behind a burst of saves read the store at every merge
    /// after its first, which kept it behind (each client reading every row itself).
    @Test func aReadOfOneRowLeavesTheHeardRowsOfOthersInUse() throws {
        let dir = try StoreTemporaryDirectory()
        let (writer, reader, results) = try antAndBee(in: dir)
        let items = try writer.viewContext.fetch(FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.name)]))
        let (ant, bee) = (items[0], items[1])

        // Bee moves to group 3 and its row is heard; then to 4. Ant moves to group 2, not heard.
        bee.group = 3
        try writer.viewContext.save()
        let beeHeard = heard(bee, readStart: DispatchTime.now().uptimeNanoseconds)
        bee.group = 4
        ant.group = 2
        try writer.viewContext.save()

        // Ant's change set reads Ant from the store (after Bee's row was heard).
        reader.viewContext.merge(ChangeSet(updated: [ant.objectID: ["group"]], origin: .otherProcess), heard: nil)
        #expect(names(results) == [["Bee"], ["Ant"]], "\(names(results))")
        // Bee's heard row is used, not the store's newer one: the read of Ant said nothing of Bee.
        reader.viewContext.merge(ChangeSet(updated: [bee.objectID: ["group"]], origin: .otherProcess), heard: beeHeard)
        #expect(results.sections?.map(\.name) == ["2", "3"], "\(results.sections?.map(\.name) ?? [])")
        // A row of Ant heard from a read that began before Ant's read is not used: the store's is.
        ant.group = 7
        try writer.viewContext.save()
        let antHeard = heard(ant, readStart: beeHeard.readStart)
        ant.group = 5
        try writer.viewContext.save()
        reader.viewContext.merge(ChangeSet(updated: [ant.objectID: ["group"]], origin: .otherProcess), heard: antHeard)
        #expect(results.sections?.map(\.name) == ["3", "5"], "\(results.sections?.map(\.name) ?? [])")
        withExtendedLifetime((writer, reader)) {}
    }
}
