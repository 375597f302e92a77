import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioPostgres

/// A statement naming rows by a list of IDs never tests the list against
/// each row it scans. The list goes as one text parameter; kept a
/// parameter (a generic plan) or cast by the stable `::bigint[]` from
/// text, `id = ANY(…)` in a scan compared every row with the whole list,
/// so a list about as long as the table cost their product: a client
/// thousands of saves behind read their rows for minutes. The server is
/// told to scan rather than use an index (as it does when the list is much
/// of the table) and to force generic plans, which Folio's sessions set
/// back to the plan cache's own choice, so that each list becomes a
/// constant the server hashes once. It logs every plan while one container
/// saves thousands of objects, another's controller hears them (the feed
/// reads their rows, the controller their keys) and a batch request
/// deletes them: no plan filters rows by a list still a parameter.
@MainActor
@Suite struct PostgresIDListPlanTests {
    static let objects = 2_000

    @Test func noStatementTestsAListOfIDsAgainstEachRowItScans() async throws {
        let log = try await ServerPlanLog.start(
            prefix: "lists",
            settings: [("enable_indexscan", "off"), ("enable_bitmapscan", "off"), ("plan_cache_mode", "force_generic_plan")])
        defer { log.cluster.destroy() }
        let pair = try ListeningPair(uri: log.uri)
        let zoos = try await pair.saveZoos(Self.objects, perSave: Self.objects)
        #expect(await pair.shows(Self.objects), "the controller shows \(pair.controller.fetchedObjects?.count ?? 0) of \(Self.objects)")
        #expect(try pair.a.viewContext.execute(BatchDeleteRequest<TestZoo>(objectIDs: zoos.map(\.objectID))).count == Self.objects)
        #expect(await pair.shows(0))

        let listScans = try log.statements().filter { statement in
            statement.contains("string_to_array")
                && statement.components(separatedBy: "\n").contains { $0.contains("Filter:") && $0.contains("ANY ('{") }
        }
        #expect(!listScans.isEmpty, "scans by a list made a constant were logged")
        let filtering = try log.statements {
            $0.contains("Filter:") && ($0.contains("ANY (($") || $0.contains("ANY ($") || $0.contains("string_to_array($"))
        }
        #expect(filtering.count == 0, "statements that test a list against each row:\n\(filtering.prefix(3).joined(separator: "\n---\n"))")
    }
}
