import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioPostgres

/// A statement naming rows by a list of IDs never tests the list against
/// each row it scans. The list goes as one text parameter; `id = ANY($1::bigint[])`
/// in a scan cast it from text again for every row, so a list about as
/// long as the table cost their product: a client thousands of saves
/// behind read their rows for minutes. The server is told to scan rather
/// than use an index (as it does when the list is much of the table) and
/// to keep generic plans (whose list is a parameter, not a constant), and
/// logs every plan (`auto_explain`) while one container saves thousands of
/// objects, another's controller hears them (the feed reads their rows,
/// the controller their keys) and a batch request deletes them: no plan
/// filters rows by a list. A cluster of its own, for its settings and its log.
@MainActor
@Suite struct PostgresIDListPlanTests {
    static let objects = 2_000

    @Test func noStatementTestsAListOfIDsAgainstEachRowItScans() async throws {
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let uri = try await cluster.makeDatabase(prefix: "lists")
        let raw = try PGConnection(uri: uri)
        guard case .text(let database)? = try raw.scalar("SELECT current_database()") else {
            Issue.record("no database name")
            return
        }
        try raw.execute(
            """
            ALTER DATABASE \(database) SET session_preload_libraries = 'auto_explain';
            ALTER DATABASE \(database) SET auto_explain.log_min_duration = 0;
            ALTER DATABASE \(database) SET enable_indexscan = off;
            ALTER DATABASE \(database) SET enable_bitmapscan = off;
            ALTER DATABASE \(database) SET plan_cache_mode = force_generic_plan
            """)
        let a = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let b = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<TestZoo>(sortBy: [SortDescriptor(\.name)]), managedObjectContext: b.viewContext)
        try controller.performFetch()

        let zoos = (0..<Self.objects).map { n in
            let zoo = TestZoo(context: a.viewContext)
            zoo.name = String(format: "zoo %05d", n)
            return zoo
        }
        try a.viewContext.save()
        let saved = zoos.map(\.objectID)
        #expect(
            await waitUntil(30) { controller.fetchedObjects?.count == Self.objects },
            "the controller shows \(controller.fetchedObjects?.count ?? 0) of \(Self.objects)")
        #expect(try a.viewContext.execute(BatchDeleteRequest<TestZoo>(objectIDs: saved)).count == Self.objects)
        #expect(await waitUntil(30) { controller.fetchedObjects?.isEmpty == true })

        let plans = try String(contentsOfFile: cluster.directory + "/log", encoding: .utf8)
        #expect(plans.contains("unnest"), "the server logged the plans of statements naming IDs")
        // Each logged statement, with its plan; a list bound as a parameter (catalog queries test constant ones).
        let filtering = plans.components(separatedBy: "LOG:  duration:").filter { statement in
            statement.components(separatedBy: "\n").contains { $0.contains("Filter:") && ($0.contains("ANY (($") || $0.contains("ANY ($")) }
        }
        #expect(filtering.count == 0, "statements that test a list against each row:\n\(filtering.prefix(3).joined(separator: "\n---\n"))")
    }
}
