import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// The controller follows saves that reach its context from elsewhere:
/// another context of the same container, and another connection to the
/// same file (the path other processes' saves take).
@MainActor @Suite struct ControllerFollowingTests {
    func waitFor(_ condition: () -> Bool) async throws {
        for _ in 0..<200 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
    }

    func makeController(_ context: ObjectContext) throws -> (FetchedResultsController<ResultsItem>, ResultsRecordingDelegate<ResultsItem>) {
        let request = FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.group), SortDescriptor(\.name)])
        let controller = FetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: \ResultsItem.group)
        let recorder = ResultsRecordingDelegate<ResultsItem>(describe: \.name)
        controller.delegate = recorder
        try controller.performFetch()
        return (controller, recorder)
    }

    @Test func followsAnotherContextsSave() async throws {
        let directory = try StoreTemporaryDirectory()
        let container = try PersistentContainer(schema: ResultsTestSchema.make(), path: directory.path("merge.sqlite"))
        let (controller, recorder) = try makeController(container.viewContext)
        try await container.performBackgroundTask { context in
            let item = ResultsItem(context: context)
            item.name = "Ant"
            item.group = 1
            try context.save()
        }
        try await waitFor { !recorder.lines.isEmpty }
        #expect(recorder.lines == ["will", "insert section 0 '1'", "insert Ant [0, 0]", "did"])
        #expect(controller.fetchedObjects?.map(\.name) == ["Ant"])
    }

    @Test func followsAnotherConnectionsSave() async throws {
        let directory = try StoreTemporaryDirectory()
        let path = directory.path("shared.sqlite")
        let mine = try PersistentContainer(schema: ResultsTestSchema.make(), path: path)
        let seed = ResultsItem(context: mine.viewContext)
        seed.name = "Bee"
        seed.group = 2
        try mine.viewContext.save()
        let (controller, recorder) = try makeController(mine.viewContext)

        let theirs = try PersistentContainer(schema: ResultsTestSchema.make(), path: path)
        let bee = try #require(try theirs.viewContext.fetch(FetchRequest<ResultsItem>()).first)
        bee.group = 1
        let ant = ResultsItem(context: theirs.viewContext)
        ant.name = "Ant"
        ant.group = 1
        try theirs.viewContext.save()
        try await waitFor {
            mine.checkForExternalChanges()
            return !recorder.lines.isEmpty
        }
        #expect(
            recorder.lines == [
                "will", "delete section 0 '2'", "insert section 0 '1'",
                "delete Bee [0, 0]", "insert Ant [0, 0]", "insert Bee [0, 1]", "did",
            ])
        #expect(controller.sections?.map(\.name) == ["1"])
        #expect((controller.sections?.first?.objects as? [ResultsItem])?.map(\.name) == ["Ant", "Bee"])
    }
}
