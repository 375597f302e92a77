import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Record-then-compare through a real store: each scenario saves and compares
/// the delegate's calls with the expected sequence.
@MainActor @Suite struct ControllerContractTests {
    let directory: StoreTemporaryDirectory
    let container: PersistentContainer
    var context: ObjectContext { container.viewContext }

    init() throws {
        directory = try StoreTemporaryDirectory()
        container = try PersistentContainer(schema: ResultsTestSchema.make(), path: directory.path("results.sqlite"))
    }

    @discardableResult
    func item(_ name: String, group: Int = 0, score: Int = 0, visible: Bool = true, tag: ResultsTag? = nil) -> ResultsItem {
        let item = ResultsItem(context: context)
        item.name = name
        item.group = group
        item.score = score
        item.visible = visible
        item.tag = tag
        return item
    }

    func grouped() -> FetchedResultsController<ResultsItem> {
        let request = FetchRequest<ResultsItem>(
            predicate: #Predicate { $0.visible == true },
            sortBy: [SortDescriptor(\.group), SortDescriptor(\.name)])
        return FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: \ResultsItem.group)
    }

    /// Records the controller's calls from its first fetch on.
    func watch(_ controller: FetchedResultsController<ResultsItem>) throws -> ResultsRecordingDelegate<ResultsItem> {
        let recorder = ResultsRecordingDelegate<ResultsItem>(describe: \.name)
        controller.delegate = recorder
        try controller.performFetch()
        return recorder
    }

    func names(_ controller: FetchedResultsController<ResultsItem>) -> [[String]] {
        (controller.sections ?? []).indices.map { controller.objects(inSection: $0).map(\.name) }
    }

    @Test func fetchesSectionsInOrder() throws {
        item("Zebra", group: 2); item("Ant", group: 1); item("Bee", group: 1); item("Hidden", group: 1, visible: false)
        try context.save()
        let controller = grouped()
        #expect(controller.sections == nil)
        try controller.performFetch()
        #expect(names(controller) == [["Ant", "Bee"], ["Zebra"]])
        #expect(controller.sections?.map(\.name) == ["1", "2"])
        #expect(controller.sections?.map(\.numberOfObjects) == [2, 1])
        #expect(controller.fetchedObjects?.map(\.name) == ["Ant", "Bee", "Zebra"])
        let zebra = controller.object(at: IndexPath(row: 0, section: 1))
        #expect(zebra.name == "Zebra")
        #expect(controller.indexPath(forObject: zebra) == IndexPath(row: 0, section: 1))
        controller.checkInvariants()
    }

    @Test func theFirstSortDescriptorMustBeTheSectionKey() throws {
        let request = FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.name), SortDescriptor(\.group)])
        let controller = FetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: \ResultsItem.group)
        #expect(throws: FetchedResultsError.sectionKeyNotFirstSortKey(sectionKeyPath: "group", firstSortKeyPath: "name")) {
            try controller.performFetch()
        }
    }

    @Test func reportsEachKindOfChangeInOneSave() throws {
        let ant = item("Ant", group: 1), bee = item("Bee", group: 1), cat = item("Cat", group: 2)
        let dog = item("Dog", group: 3)
        try context.save()
        let controller = grouped()
        let recorder = try watch(controller)

        context.delete(ant)  // delete, old path
        bee.score = 5  // update in place
        cat.group = 3  // section 2 empties; cat goes to section 3
        dog.name = "Aardvark"  // key change that keeps its place: an update
        item("Eel", group: 4)  // new section
        try context.save()
        #expect(
            recorder.lines == [
                "will",
                "delete section 1 '2'",
                "insert section 2 '4'",
                "delete Ant [0, 0]",
                "delete Cat [1, 0]",  // out of a deleted section: delete + insert
                "insert Cat [1, 1]",
                "insert Eel [2, 0]",
                "update Bee [0, 1] -> [0, 0]",
                "update Aardvark [2, 0] -> [1, 0]",
                "did",
            ])
        #expect(names(controller) == [["Bee"], ["Aardvark", "Cat"], ["Eel"]])
        controller.checkInvariants()
    }

    @Test func aMoveBetweenLivingSectionsIsOneMove() throws {
        item("Ant", group: 1); let bee = item("Bee", group: 1); item("Cat", group: 2)
        try context.save()
        let controller = grouped()
        let recorder = try watch(controller)
        bee.group = 2
        try context.save()
        #expect(recorder.lines == ["will", "move Bee [0, 1] -> [1, 0]", "did"])
        #expect(recorder.batches.count == 1)
    }

    @Test func predicateMembershipChangesAreInsertsAndDeletes() throws {
        let ant = item("Ant", group: 1), bee = item("Bee", group: 1, visible: false)
        try context.save()
        let controller = grouped()
        let recorder = try watch(controller)
        ant.visible = false
        bee.visible = true
        try context.save()
        #expect(recorder.lines == ["will", "delete Ant [0, 0]", "insert Bee [0, 0]", "did"])
    }

    @Test func aChangeToARelatedObjectMovesItsDependents() throws {
        let low = ResultsTag(context: context), high = ResultsTag(context: context)
        low.rank = 1
        high.rank = 2
        item("Ant", tag: low); item("Bee", tag: high); item("Cat", tag: high)
        try context.save()
        let request = FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.tag?.rank), SortDescriptor(\.name)])
        let controller = FetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: \ResultsItem.tag?.rank)
        let recorder = try watch(controller)
        #expect(names(controller) == [["Ant"], ["Bee", "Cat"]])
        high.rank = 0
        try context.save()
        #expect(
            recorder.lines == [
                "will", "delete section 1 '2'", "insert section 0 '0'",
                "delete Bee [1, 0]", "delete Cat [1, 1]", "insert Bee [0, 0]", "insert Cat [0, 1]", "did",
            ])
        #expect(names(controller) == [["Bee", "Cat"], ["Ant"]])
        recorder.reset()
        low.label = "renamed"  // not a key: nothing to report
        try context.save()
        #expect(recorder.lines.isEmpty)
    }

    @Test func aLimitedRequestPushesRowsOutOfItsWindow() throws {
        item("Ant", score: 1); item("Bee", score: 2); item("Cat", score: 3)
        try context.save()
        var request = FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.score)])
        request.fetchLimit = 2
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context)
        let recorder = try watch(controller)
        item("Aardvark", score: 0)
        try context.save()
        #expect(recorder.lines == ["will", "delete Bee [0, 1]", "insert Aardvark [0, 0]", "did"])
        #expect(names(controller) == [["Aardvark", "Ant"]])
    }

    /// As Core Data's controller: the context's own unsaved changes are in
    /// the results, and reported, when the context processes them; the save
    /// reports nothing more; a rollback is reported back.
    @Test func unsavedChangesAppearWhenProcessedAndTheSaveReportsNothingMore() throws {
        let ant = item("Ant")
        try context.save()
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.name)]),
            managedObjectContext: context)
        let recorder = try watch(controller)
        let bee = item("Bee")
        #expect(recorder.lines == [], "nothing before the context processes its changes")
        context.processPendingChanges()
        #expect(recorder.lines == ["will", "insert Bee [0, 1]", "did"])
        #expect(controller.object(at: IndexPath(row: 1, section: 0)) === bee)

        recorder.reset()
        bee.name = "Aardvark"
        context.processPendingChanges()
        #expect(recorder.lines == ["will", "move Aardvark [0, 1] -> [0, 0]", "did"])

        recorder.reset()
        try context.save()
        #expect(recorder.lines == [], "the save reports nothing the batches did not")
        #expect(!bee.objectID.isTemporary)
        #expect(controller.indexPath(forObject: bee) == IndexPath(row: 0, section: 0))
        #expect(controller.snapshot().itemIdentifiers == [[bee.objectID, ant.objectID]])

        context.delete(ant)
        bee.score = 3
        try context.save()  // unprocessed changes are processed by the save, once
        #expect(recorder.lines == ["will", "delete Ant [0, 1]", "update Aardvark [0, 0] -> [0, 0]", "did"])

        recorder.reset()
        let cat = item("Cat")
        bee.name = "Zebra"
        context.processPendingChanges()
        // It kept its place among unchanged rows.
        #expect(recorder.lines == ["will", "insert Cat [0, 0]", "update Zebra [0, 0] -> [0, 1]", "did"])
        recorder.reset()
        context.rollback()
        #expect(recorder.lines == ["will", "delete Cat [0, 0]", "update Aardvark [0, 1] -> [0, 0]", "did"])
        #expect(names(controller) == [["Aardvark"]])
        _ = cat
        controller.checkInvariants()
    }

    @Test func aFetchIncludesUnsavedChanges() throws {
        item("Ant")
        try context.save()
        item("Bee")  // not saved
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.name)]),
            managedObjectContext: context)
        let recorder = try watch(controller)
        #expect(names(controller) == [["Ant", "Bee"]])
        try context.save()
        #expect(recorder.lines == [])
        #expect(controller.snapshot().itemIdentifiers.first?.allSatisfy { !$0.isTemporary } == true)
    }

    @Test func aPredicateThroughARelationshipFollowsTheRelatedObject() throws {
        let tag = ResultsTag(context: context)
        tag.rank = 1
        item("Ant", tag: tag); item("Bee")
        try context.save()
        let request = FetchRequest<ResultsItem>(predicate: #Predicate { $0.tag?.rank == 5 }, sortBy: [SortDescriptor(\.name)])
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context)
        let recorder = try watch(controller)
        #expect(names(controller) == [[]])
        tag.rank = 5  // Ant now matches, though Ant itself did not change
        try context.save()
        #expect(recorder.lines == ["will", "insert Ant [0, 0]", "did"])
        recorder.reset()
        tag.rank = 6
        try context.save()
        #expect(recorder.lines == ["will", "delete Ant [0, 0]", "did"])
    }

    @Test func userDrivenChangesAreNotEchoed() throws {
        let ant = item("Ant", score: 1); item("Bee", score: 2)
        try context.save()
        let request = FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.score)])
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context)
        let recorder = try watch(controller)
        try controller.withUserDrivenChanges {
            ant.score = 3
            try context.save()
        }
        #expect(recorder.lines.isEmpty)
        #expect(names(controller) == [["Bee", "Ant"]])
        ant.score = 0
        try context.save()
        #expect(recorder.lines == ["will", "move Ant [0, 1] -> [0, 0]", "did"])
    }

    @Test func unsectionedResultsHaveOneSectionEvenWhenEmpty() throws {
        let request = FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.name)])
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context)
        try controller.performFetch()
        #expect(controller.sections?.count == 1)
        #expect(controller.sections?.first?.numberOfObjects == 0)
        let recorder = ResultsRecordingDelegate<ResultsItem>(describe: \.name)
        controller.delegate = recorder
        item("Ant")
        try context.save()
        #expect(recorder.lines == ["will", "insert Ant [0, 0]", "did"])
    }

    @Test func sectionIndexTitlesComeFromNamesOrTheDelegate() throws {
        item("Ant", group: 10); item("Bee", group: 20); item("Cat", group: 25)
        try context.save()
        let controller = grouped()
        try controller.performFetch()
        #expect(controller.sectionIndexTitles == ["1", "2"])
        #expect(controller.section(forSectionIndexTitle: "2", at: 1) == 1)
        let recorder = ResultsRecordingDelegate<ResultsItem>(describe: \.name)
        recorder.indexTitles = ["25": "X"]
        controller.delegate = recorder
        #expect(controller.sectionIndexTitles == ["1", "2", "X"])
        #expect(controller.sections?.map(\.indexTitle) == ["1", "2", "X"])
    }

    @Test func aChangedRequestIsFetchedAgain() throws {
        item("Ant", group: 1, score: 3); item("Bee", group: 2, score: 1)
        try context.save()
        let controller = grouped()
        try controller.performFetch()
        #expect(names(controller) == [["Ant"], ["Bee"]])
        controller.fetchRequest.sortDescriptors = [SortDescriptor(\.group, order: .reverse), SortDescriptor(\.score)]
        try controller.performFetch()
        #expect(names(controller) == [["Bee"], ["Ant"]])
        controller.fetchRequest.predicate = #Predicate { $0.score > 2 }
        try controller.performFetch()
        #expect(names(controller) == [["Ant"]])
        controller.fetchRequest.sortDescriptors = [SortDescriptor(\.name)]  // not by the section key
        #expect(throws: FetchedResultsError.self) { try controller.performFetch() }
        #expect(names(controller) == [["Ant"]])  // the last results stay
    }

    @Test func snapshotsAndChangeSetStreamsFollowSaves() async throws {
        item("Ant", group: 1)
        try context.save()
        let controller = grouped()
        var snapshots: [ResultsSnapshot<ObjectID>] = []
        controller.snapshotHandler = { snapshots.append($0) }
        try controller.performFetch()
        let stream = controller.changeSets()
        let bee = item("Bee", group: 2)
        let unsaved = bee.objectID  // reported when the context processes it, before the save
        try context.save()
        #expect(snapshots.count == 2, "the batch, then the save's new IDs")
        #expect(snapshots.first?.sectionIdentifiers == [SectionIdentifier("1"), SectionIdentifier("2")])
        #expect(snapshots.first?.itemIdentifiers.last == [unsaved])
        #expect(snapshots.last?.itemIdentifiers.last == [bee.objectID], "the saved object keeps its row under its permanent ID")
        var iterator = stream.makeAsyncIterator()
        let changes = await iterator.next()
        #expect(changes?.sectionChanges == [SectionChange(type: .insert, index: 1, section: SectionIdentifier("2"))])
        #expect(
            changes?.objectChanges == [
                ObjectChange(type: .insert, id: unsaved, indexPath: nil, newIndexPath: IndexPath(row: 0, section: 1))
            ])
    }

    /// A nil key and an empty key are two sections, both named "", with
    /// identifiers that never repeat: in `sections`, the snapshot, the
    /// change-set stream, and a diffable data source that refuses repeats.
    @Test func nilAndEmptySectionKeysAreTwoSectionsWithTheirOwnIdentities() async throws {
        let none = item("Ant"), empty = item("Bee"), shelved = item("Cat")
        none.shelf = nil
        empty.shelf = ""
        shelved.shelf = "A"
        try context.save()
        let request = FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.shelf), SortDescriptor(\.name)])
        let controller = FetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: \ResultsItem.shelf)
        let recorder = try watch(controller)
        #expect(controller.sections?.map(\.name) == ["", "", "A"])
        #expect(controller.sections?.map(\.identifier) == [.nilKey, SectionIdentifier(""), SectionIdentifier("A")])
        #expect(controller.snapshot().sectionIdentifiers == [.nilKey, SectionIdentifier(""), SectionIdentifier("A")])

        let stream = controller.changeSets()
        context.delete(none)
        let dog = item("Dog")
        dog.shelf = nil
        try context.save()
        #expect(recorder.lines == ["will", "delete Ant [0, 0]", "insert Dog [0, 0]", "did"])
        context.delete(empty)
        try context.save()
        var iterator = stream.makeAsyncIterator()
        _ = await iterator.next()
        let changes = await iterator.next()
        #expect(changes?.sectionChanges == [SectionChange(type: .delete, index: 1, section: SectionIdentifier(""))])
        #expect(controller.snapshot().sectionIdentifiers == [.nilKey, SectionIdentifier("A")])
        controller.checkInvariants()
    }
}
