import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioPostgres

/// A statement that reads rows by a list of IDs is planned with its list
/// each time, never prepared: a session's prepared statement comes to use
/// a generic plan, made once from the table's size then, and a plan made
/// while the table was small scans the whole table for every read once it
/// has grown (until the server analyzes the table again). A process's feed
/// reads the rows of every save it hears this way.
@MainActor
@Suite struct PostgresListPlanTests {
    @Test func rowsReadByIDsUseTheKeyAfterTheTableHasGrown() async throws {
        let log = try await ServerPlanLog.start(prefix: "listplans")
        defer { log.cluster.destroy() }
        let pair = try ListeningPair(uri: log.uri)
        var saved = 0
        func save(_ count: Int, perSave: Int) async throws {
            for _ in 0..<count {
                for _ in 0..<perSave {
                    TestZoo(context: pair.a.viewContext).name = "zoo \(saved)"
                    saved += 1
                }
                try pair.a.viewContext.save()
                // Heard one at a time: each read of the listening process reads one save's rows.
                #expect(await pair.shows(saved), "the controller shows \(pair.controller.fetchedObjects?.count ?? 0) of \(saved)")
            }
        }
        // Lists of ten, read many times while the table is small: a prepared statement's plan would be generic by now.
        try await save(20, perSave: 10)
        let raw = try PGConnection(uri: log.uri)
        try raw.execute("INSERT INTO \"TestZoo\" (id, name) SELECT 1000000 + g, 'bulk ' || g FROM generate_series(1, 30000) g")
        let start = try log.length()
        try await save(3, perSave: 10)

        let reads = try log.statements(since: start).filter { $0.contains("FROM \"TestZoo\" t0 WHERE t0.id = ANY") }
        #expect(!reads.isEmpty, "the listening process's reads were logged")
        let scanning = reads.filter { $0.contains("Seq Scan on \"TestZoo\"") }
        #expect(scanning.isEmpty, "reads by ID that scan the whole table:\n\(scanning.prefix(2).joined(separator: "\n---\n"))")
    }
}
