import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Batch requests under live controllers: random batch inserts, updates by
/// predicate and deletes by predicate or ID, from the controllers' own
/// context and from a background context, between unsaved changes and
/// saves. Each batch reaches every controller as one report which, applied
/// to its previous sections by UITableView's rules, gives a fresh fetch, and
/// which a FolioTable table accepts; nothing changes unreported.
@MainActor @Suite struct ControllerBatchRequestTests {
    typealias Watch = ControllerModelTests.Watch

    /// A random batch request, run by `context`; returns what it was.
    nonisolated static func runBatch<R: RandomNumberGenerator>(_ context: ObjectContext, _ random: inout R) throws -> String {
        let shelves: [String?] = [nil, "", "A", "B"]
        let g = Int.random(in: 0..<5, using: &random), s = Int.random(in: 0..<8, using: &random)
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            let n = Int.random(in: 0..<6, using: &random) == 0 ? 150 : Int.random(in: 0...12, using: &random)
            let rows: [[String: Any]] = (0..<n).map { i in
                [
                    "name": String(UnicodeScalar(UInt8(65 + (i * 7 + g) % 20))), "group": (i + g) % 5, "score": (i * 3 + s) % 8,
                    "visible": i % 4 != 0, "shelf": shelves[(i + s) % 4] ?? NSNull(),
                ]
            }
            try context.execute(BatchInsertRequest<ResultsItem>(objects: rows))
            return "insert \(n)"
        case 1, 2:
            var request = BatchUpdateRequest<ResultsItem>(
                predicate: Bool.random(using: &random)
                    ? #Predicate { $0.group == g } : #Predicate { $0.score >= s })
            switch Int.random(in: 0..<5, using: &random) {
            case 0: request.set(\.group, to: Int.random(in: 0..<5, using: &random))
            case 1: request.set(\.score, to: Int.random(in: 0..<8, using: &random))
            case 2: request.set(\.shelf, to: shelves.randomElement(using: &random)!)
            case 3: request.set(\.visible, to: Bool.random(using: &random))
            default:
                request.set(\.name, to: "Q")
                request.set(\.group, to: Int.random(in: 0..<5, using: &random))
            }
            return "update (group \(g) / score \(s)) \(try context.execute(request.with(resultType: .count)).count)"
        case 3:
            let request = BatchDeleteRequest<ResultsItem>(predicate: #Predicate { $0.score == s && $0.group == g })
            return "delete \(try context.execute(request.with(resultType: .count)).count)"
        case 4:
            let ids = try context.fetchIDs(FetchRequest<ResultsItem>()).filter { _ in Int.random(in: 0..<6, using: &random) == 0 }
            return "delete by IDs \(try context.execute(BatchDeleteRequest<ResultsItem>(objectIDs: ids).with(resultType: .count)).count)"
        default:
            // Tags: a rank change moves items sectioned or sorted by it; a delete nullifies their tag.
            if Bool.random(using: &random) {
                let request = BatchUpdateRequest<ResultsTag>(predicate: #Predicate { $0.rank <= s }).setting(\.rank, to: g)
                return "tag ranks \(try context.execute(request.with(resultType: .count)).count)"
            }
            let request = BatchDeleteRequest<ResultsTag>(predicate: #Predicate { $0.rank == s })
            return "tag delete \(try context.execute(request.with(resultType: .count)).count)"
        }
    }

    /// Whether an object with unsaved changes shows values older than the
    /// store's: a batch changed a key it changed too, so the merge left it
    /// behind for the save's merge policy to resolve.
    static func behindTheStore(_ context: ObjectContext, _ background: ObjectContext) throws -> Bool {
        let keys = ["name", "group", "score", "visible", "shelf"]
        let changed = context.registeredObjects.filter { $0.hasChanges && !$0.isDeleted && !$0.objectID.isTemporary }
        let shown = changed.map { $0.committedValues(forKeys: keys) }, ids = changed.map(\.objectID)
        let stored = try background.performAndWait { other in
            try ids.map { try other.existingObject(with: $0).committedValues(forKeys: keys) }
        }
        return shown != stored
    }

    @Test func everyBatchRequestIsOneConsistentReportToEveryController() async throws {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed)
        let directory = try StoreTemporaryDirectory()
        let container = try PersistentContainer(schema: ResultsTestSchema.make(), path: directory.path("batch.sqlite"))
        let context = container.viewContext
        // Its unsaved changes meet the batches' writes to the same rows; as in
        // an app, a merge policy resolves them (under the default, `.error`,
        // the save fails with the conflict, as ConflictTests check).
        context.mergePolicy = .mergeByPropertyObjectTrump
        let background = container.newBackgroundContext()
        for rank in 0..<6 {
            let tag = ResultsTag(context: context)
            tag.rank = rank
        }
        try context.save()
        let tags = try context.fetchIDs(FetchRequest<ResultsTag>())
        for i in 0..<40 {
            let item = ResultsItem(context: context)
            item.name = String(UnicodeScalar(UInt8(65 + i % 20)))
            item.group = i % 5
            item.score = i % 8
            item.tag = i % 3 == 0 ? nil : context.object(with: tags[i % tags.count], as: ResultsTag.self)
        }
        try context.save()

        let watches = try ControllerModelTests.watches(on: context)
        var merges = 0
        let token = context.observeChanges { if $0.origin == .otherContext { merges += 1 } }

        for round in 0..<150 {
            // Sometimes unsaved changes first: they are reported before the batch.
            if Int.random(in: 0..<3, using: &random) == 0,
                let item = try context.fetch(FetchRequest<ResultsItem>()).randomElement(using: &random)
            {
                item.score = Int.random(in: 0..<8, using: &random)
            }
            // A save that resolves a clash (an object whose changed key was
            // changed by a batch too stays behind the store until then) shows
            // the store's values of its other keys: one report more.
            var resolved = false
            if Int.random(in: 0..<4, using: &random) == 0 {
                resolved = try Self.behindTheStore(context, background)
                try context.save()
            }
            let what: String
            if Bool.random(using: &random) {
                what = try Self.runBatch(context, &random)
            } else {
                context.processPendingChanges()
                let before = merges
                let seed = random.next()
                let done = try background.performAndWait { other in
                    var r = StoreSplitMix64(seed: seed)
                    return try Self.runBatch(other, &r)
                }
                what = "background " + done
                // A batch that matched nothing writes nothing and is not heard.
                if !done.hasSuffix(" 0") {
                    if !(await ControllerModelTests.eventually { merges > before }) {
                        Issue.record("round \(round): \(what) never arrived"); return
                    }
                }
            }
            // The pending batch (and a save's resolution), then the request's.
            let label = "round \(round) (\(what)\(resolved ? ", after a save that resolved a clash" : "")), seed \(random.seed)"
            if !(try ControllerModelTests.expectConsistent(watches, label, reportsEach: resolved ? 3 : 2)) { return }
        }
        withExtendedLifetime(token) {}
    }
}

extension BatchUpdateRequest {
    func with(resultType: BatchResultType) -> Self {
        var copy = self
        copy.resultType = resultType
        return copy
    }
}

extension BatchDeleteRequest {
    func with(resultType: BatchResultType) -> Self {
        var copy = self
        copy.resultType = resultType
        return copy
    }
}
