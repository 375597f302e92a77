import FolioPostgres
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// A shelf is unique by aisle and bay together.
final class BatchShelf: ManagedObject {
    @Managed var aisle: String
    @Managed var bay: Int

    override class var entity: EntityDescription {
        EntityDescription(
            BatchShelf.self,
            properties: [.attribute(\BatchShelf.aisle, "aisle"), .attribute(\BatchShelf.bay, "bay")],
            uniqueTogether: [["aisle", "bay"]])
    }
}

/// A batch insert's unique values are checked by the store's own unique
/// indexes, on both backends: a value repeated inside the batch, or one a
/// stored row holds, fails the whole batch with an error naming every
/// column of the group and its values, and nothing is written.
@MainActor
@Suite struct BatchUniqueTogetherTests {
    let dir: StoreTemporaryDirectory

    init() throws { dir = try StoreTemporaryDirectory() }

    func containers() async throws -> [(String, PersistentContainer)] {
        let uri = try await PostgresCluster.shared().makeDatabase()
        let schema = { Schema([BatchShelf.self]) }
        return [
            ("SQLite", try PersistentContainer(schema: schema(), path: dir.path("shelves.sqlite"))),
            ("PostgreSQL", try PersistentContainer(schema: schema(), store: .postgreSQL(uri))),
        ]
    }

    @Test func aGroupRepeatedInTheBatchOrStoredFailsTheBatchNamingEveryColumn() async throws {
        for (backend, container) in try await containers() {
            let c = container.viewContext
            _ = try c.execute(BatchInsertRequest<BatchShelf>(objects: [["aisle": "A", "bay": 1]]))
            let expected = StoreError.constraintViolation(entity: "BatchShelf", key: "aisle, bay", value: "'B', 2")
            #expect(throws: expected, "\(backend): repeated inside the batch") {
                try c.execute(
                    BatchInsertRequest<BatchShelf>(objects: [
                        ["aisle": "B", "bay": 2], ["aisle": "A", "bay": 2], ["aisle": "B", "bay": 2],
                    ]))
            }
            #expect(throws: StoreError.constraintViolation(entity: "BatchShelf", key: "aisle, bay", value: "'A', 1"), "\(backend): stored")
            {
                try c.execute(BatchInsertRequest<BatchShelf>(objects: [["aisle": "C", "bay": 1], ["aisle": "A", "bay": 1]]))
            }
            let stored = try c.fetch(FetchRequest<BatchShelf>()).map { "\($0.aisle)\($0.bay)" }
            #expect(stored == ["A1"], "\(backend): a failed batch wrote \(stored)")
        }
    }
}
