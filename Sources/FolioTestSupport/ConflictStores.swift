import FolioStore
import Foundation

/// Helpers for the conflict tests of both backends.
public enum ConflictStores {
    /// A stored schema record (`folio_metadata`'s `schema` value) as a store
    /// made before row versions records it: without the version column.
    public static func withoutVersions(_ json: String) throws -> String {
        var stored = try JSONDecoder().decode(StoredSchema.self, from: Data(json.utf8))
        for name in stored.tables.keys { stored.tables[name]?[RowVersion.column] = nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(stored), as: UTF8.self)
    }

    /// The version column's name, for tests that read it with SQL.
    public static var versionColumn: String { RowVersion.column }
}
