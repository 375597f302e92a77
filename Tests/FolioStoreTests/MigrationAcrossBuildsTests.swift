import FolioTestSupport
import Foundation
import Testing

@testable import FolioStore

/// Two builds of one app share a store in any order: an older build never
/// takes back what a newer one recorded, a read writes nothing, and a store
/// whose tables are ahead of its record (as an older Folio left it) opens.
@MainActor
@Suite struct MigrationAcrossBuildsTests {
    func record(_ path: String) throws -> String {
        let reader = try SQLiteConnection(path: path, busyTimeoutMilliseconds: 2000, mode: .readOnly)
        guard case .text(let json)? = try reader.rows("SELECT value FROM folio_metadata WHERE key = 'schema'").first?.first else {
            return ""
        }
        return json
    }

    /// The newer build makes the store and saves an item on shelf B2.
    func saveLampWithTheNewerBuild(_ path: String) throws {
        let newer = try PersistentContainer(schema: TwoBuildsSchema.newer, path: path, pollInterval: 3600)
        let item = NewerBuildItem(context: newer.viewContext)
        item.name = "Lamp"
        item.shelf = "B2"
        try newer.viewContext.save()
    }

    @Test func anOlderBuildKeepsWhatANewerOneAdded() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("inventory.sqlite")
        try saveLampWithTheNewerBuild(path)
        let recorded = try record(path)
        #expect(recorded.contains("shelf"))
        // The older build reads, then writes, and records nothing less.
        do {
            let reader = try PersistentContainer(schema: TwoBuildsSchema.older, path: path, readOnly: true, pollInterval: 3600)
            #expect(try reader.viewContext.fetch(FetchRequest<OlderBuildItem>()).map(\.name) == ["Lamp"])
        }
        do {
            let older = try PersistentContainer(schema: TwoBuildsSchema.older, path: path, pollInterval: 3600)
            OlderBuildItem(context: older.viewContext).name = "Desk"
            try older.viewContext.save()
        }
        #expect(try record(path) == recorded)
        let newer = try PersistentContainer(schema: TwoBuildsSchema.newer, path: path, pollInterval: 3600)
        let items = try newer.viewContext.fetch(FetchRequest<NewerBuildItem>(sortBy: [SortDescriptor(\.name)]))
        #expect(items.map(\.name) == ["Desk", "Lamp"])
        #expect(items.map(\.shelf) == ["unsorted", "B2"])
    }

    /// A store an older Folio left with a record behind its tables (the column is there, the record lacks it).
    @Test func aStoreWhoseTablesAreAheadOfItsRecordOpens() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("inventory.sqlite")
        try saveLampWithTheNewerBuild(path)
        let behind = try record(path).replacingOccurrences(of: ",\"shelf\":\"TEXT\"", with: "")
        #expect(!behind.contains("shelf"))
        runSQL(path, "UPDATE folio_metadata SET value = '\(behind)' WHERE key = 'schema'")
        let newer = try PersistentContainer(schema: TwoBuildsSchema.newer, path: path, pollInterval: 3600)
        #expect(try newer.viewContext.fetch(FetchRequest<NewerBuildItem>()).map(\.shelf) == ["B2"])
        #expect(try record(path).contains("shelf"))
    }
}
