import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Opening a store this build already prepared for the schema takes no
/// write lock and runs no DDL: containers opening at once do not queue
/// behind each other's schema checks, and a role that may only read and
/// write rows can use the store.
@MainActor
@Suite struct PostgresOpeningTests {
    @Test func aRoleThatMayOnlyWriteRowsOpensAPreparedStoreAndSaves() async throws {
        let cluster = try await PostgresCluster.shared()
        let uri = try await cluster.makeDatabase(prefix: "opening")
        let database = PostgresCluster.databaseName(uri)
        let owner = try PersistentContainer(schema: StoreTestSchema.make(name: "zoo"), store: .postgreSQL(uri))
        let role = "\(database)_member"
        try await cluster.runSQL(
            """
            CREATE ROLE \(role) LOGIN; GRANT USAGE ON SCHEMA zoo TO \(role);
            GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA zoo TO \(role);
            GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA zoo TO \(role)
            """, database: database)
        let member = try PersistentContainer(
            schema: StoreTestSchema.make(name: "zoo"),
            store: .postgreSQL(uri.replacingOccurrences(of: "user=postgres", with: "user=\(role)")))
        let animal = TestAnimal(context: member.viewContext)
        animal.commonName = "Okapi"
        try member.viewContext.save()
        #expect(try owner.viewContext.fetch(FetchRequest<TestAnimal>()).map(\.commonName) == ["Okapi"])
    }
}
