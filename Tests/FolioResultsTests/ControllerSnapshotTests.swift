import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// The snapshot handler hears a controller only when its results change:
/// with a change report, or when a save gives objects in the results their
/// permanent IDs. A save that changes nothing a controller shows is silent
/// for it, and no change goes unheard.
@MainActor @Suite struct ControllerSnapshotTests {
    /// A controller's snapshot handler, checked at every call.
    @MainActor final class SnapshotCheck {
        let watch: ResultsWatch<ResultsItem>
        var last: ResultsSnapshot<ObjectID>
        var reportsSeen = 0
        var calls = 0
        var problems: [String] = []

        init(_ watch: ResultsWatch<ResultsItem>) {
            self.watch = watch
            last = watch.harness.controller.snapshot()
            reportsSeen = watch.reports
            watch.harness.controller.snapshotHandler = { [unowned self] snapshot in heard(snapshot) }
        }

        private func heard(_ snapshot: ResultsSnapshot<ObjectID>) {
            calls += 1
            let reported = watch.reports > reportsSeen
            reportsSeen = watch.reports
            let renamed = snapshot.itemIdentifiers != last.itemIdentifiers
            if !reported && !renamed { problems.append("a snapshot without a change: \(snapshot.itemIdentifiers)") }
            last = snapshot
        }

        /// Between steps: the last snapshot heard is what the controller shows.
        func expectCurrent(_ label: String) {
            let now = watch.harness.controller.snapshot()
            #expect(
                now.sectionIdentifiers == last.sectionIdentifiers && now.itemIdentifiers == last.itemIdentifiers,
                "\(label): the snapshot handler missed a change")
            #expect(problems.isEmpty, "\(label): \(problems)")
            #expect(watch.problems.isEmpty, "\(label): \(watch.problems)")
        }
    }

    @Test(arguments: TestBackend.allCases)
    func aSaveOfAnObjectOutsideThePredicateIsSilent(_ backend: TestBackend) async throws {
        let store = try await backend.makeStore()
        let container = try PersistentContainer(schema: ResultsTestSchema.make(), store: store.description)
        let context = container.viewContext
        let request = FetchRequest<ResultsItem>(predicate: #Predicate { $0.group == 1 }, sortBy: [SortDescriptor(\.name)])
        let check = SnapshotCheck(try ResultsWatch(request, in: context, sectionKey: nil))
        let outside = ResultsItem(context: context)
        outside.group = 2
        try context.save()
        #expect(check.calls == 0, "an object the predicate excludes was saved")
        let inside = ResultsItem(context: context)
        inside.group = 1
        context.processPendingChanges()
        #expect(check.calls == 1, "the new object is reported")
        try context.save()
        #expect(check.calls == 2, "the saved object's permanent ID")
        check.expectCurrent("after the saves")
    }

    @Test(arguments: TestBackend.allCases)
    func randomSavesCallTheSnapshotHandlerOnlyForChanges(_ backend: TestBackend) async throws {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed, "backend:", backend)
        let store = try await backend.makeStore()
        let container = try PersistentContainer(schema: ResultsTestSchema.make(), store: store.description)
        let context = container.viewContext
        let background = container.newBackgroundContext()
        var tags: [ResultsTag] = []
        for rank in 0..<4 {
            let tag = ResultsTag(context: context)
            tag.rank = rank * 2
            tags.append(tag)
        }
        var items = (0..<20).map { _ in ControllerModelTests.randomItem(in: context, tags: tags, using: &random) }
        try context.save()
        let checks = try ControllerModelTests.requests().map { request, sectionKey, _ in
            SnapshotCheck(try ResultsWatch(request, in: context, sectionKey: sectionKey))
        }
        var saves = 0, merges = 0
        let token = context.observeChanges { if $0.origin == .otherContext { merges += 1 } }
        for round in 0..<300 {
            await Task.yield()
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                guard let item = items.randomElement(using: &random) else { break }
                switch Int.random(in: 0..<8, using: &random) {
                case 0, 1: items.append(ControllerModelTests.randomItem(in: context, tags: tags, using: &random))
                case 2:
                    context.delete(item)
                    items.removeAll { $0 === item }
                case 3: item.group = .random(in: 0..<5, using: &random)
                case 4: item.score = .random(in: 0..<8, using: &random)
                case 5: tags.randomElement(using: &random)?.rank = .random(in: 0..<8, using: &random)
                case 6: tags.randomElement(using: &random)?.label = "label \(round)"
                default: item.visible.toggle()
                }
            }
            let what: String
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1, 2:
                what = "processed"
                context.processPendingChanges()
            case 3:
                what = "rolled back"
                context.rollback()
                items.removeAll { $0.isDeleted || $0.context == nil || $0.objectID.isTemporary }
            case 4:
                what = "merged"
                context.processPendingChanges()
                let before = merges
                let group = Int.random(in: 0..<5, using: &random)
                try background.performAndWait { other in
                    let added = ResultsItem(context: other)
                    added.name = "Z"
                    added.group = group
                    try other.save()
                }
                if !(await ControllerModelTests.eventually { merges > before }) {
                    Issue.record("round \(round): the other save never arrived"); return
                }
            default:
                what = "saved"
                saves += 1
                try context.save()
            }
            for (i, check) in checks.enumerated() { check.expectCurrent("round \(round) (\(what)), controller \(i), \(backend)") }
            if checks.contains(where: { !$0.problems.isEmpty }) { break }
        }
        print("seed:", random.seed, "saves:", saves, "snapshots:", checks.map(\.calls))
        withExtendedLifetime(token) {}
    }
}
