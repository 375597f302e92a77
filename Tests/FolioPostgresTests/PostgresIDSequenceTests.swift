import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioPostgres

/// New objects draw their IDs from a sequence per entity. An earlier
/// version of Folio saving to the same store picks IDs from the rows
/// instead and leaves the sequence behind; the next save or batch insert
/// then finds its ID taken, and must move the sequence on rather than fail.
@MainActor
@Suite struct PostgresIDSequenceTests {
    let cluster: PostgresCluster
    let uri: String
    var database: String { PostgresCluster.databaseName(uri) }

    init() async throws {
        cluster = try await PostgresCluster.shared()
        uri = try await cluster.makeDatabase(prefix: "sequences")
    }

    /// Leaves the sequence where it was before `taken` rows were written, as
    /// when a writer that does not draw from it added them.
    func rewindSequence() async throws {
        let sequence = PostgresBackend.idSequence("ConflictNote")
        _ = try await cluster.runSQL("SELECT setval('conflicts.\"\(sequence)\"', 1, false)", database: database)
    }

    func titles(_ container: PersistentContainer) throws -> [String] {
        try container.viewContext.fetch(FetchRequest<ConflictNote>()).map(\.title).sorted()
    }

    @Test func aSaveWhoseNewIDIsTakenMovesTheSequenceOnAndSaves() async throws {
        let container = try PersistentContainer(schema: ConflictTestSchema.make(), store: .postgreSQL(uri))
        for title in ["a", "b", "c"] { ConflictNote(context: container.viewContext).title = title }
        try container.viewContext.save()
        try await rewindSequence()
        let note = ConflictNote(context: container.viewContext)
        note.title = "d"
        try container.viewContext.save()
        #expect(note.objectID.rowID > 3)
        #expect(try titles(container) == ["a", "b", "c", "d"])
    }

    @Test func aBatchInsertStartsPastRowsTheSequenceDidNotGive() async throws {
        let container = try PersistentContainer(schema: ConflictTestSchema.make(), store: .postgreSQL(uri))
        for title in ["a", "b"] { ConflictNote(context: container.viewContext).title = title }
        try container.viewContext.save()
        try await rewindSequence()
        let ids = try container.viewContext.execute(BatchInsertRequest<ConflictNote>(objects: [["title": "c"], ["title": "d"]]))
        #expect(ids.count == 2)
        #expect(try titles(container) == ["a", "b", "c", "d"])
    }
}
