import Foundation

/// The shape of the schema as recorded in the store, for migrations and to
/// tell one application's store from another's.
///
/// The record only ever grows: a program writes back what it found plus
/// what its own schema adds, never less. Two builds of one app can then
/// share a store in either order — an older build, which lacks an
/// attribute a newer one added without raising the version, leaves that
/// column in the record and in the table, so the newer build finds both
/// again.
///
///     let record = StoredSchema.recording(schema, over: stored)
package struct StoredSchema: Codable, Equatable {
    /// The schema's name; nil for an unnamed schema (and stores made before names).
    package var name: String?
    package var version: Int
    /// Entity name → column name → column type.
    package var tables: [String: [String: String]]

    package init(name: String? = nil, version: Int, tables: [String: [String: String]]) {
        self.name = name
        self.version = version
        self.tables = tables
    }

    /// The record to keep after opening `stored` (nil: a new store) with
    /// `schema`: every entity and column either knows, the higher version,
    /// and the schema's name (or the stored one, for an unnamed schema).
    package static func recording(_ schema: Schema, over stored: StoredSchema?) -> StoredSchema {
        var record = stored ?? StoredSchema(version: schema.version, tables: [:])
        record.name = schema.name ?? stored?.name
        record.version = max(record.version, schema.version)
        for entity in schema.entities {
            record.tables[entity.name, default: [:]].merge(entity.storedColumns) { _, mine in mine }
        }
        return record
    }

    /// The record as stored: JSON with sorted keys, so an unchanged record compares equal as text.
    package var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Strings and integers only: encoding cannot fail.
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}
