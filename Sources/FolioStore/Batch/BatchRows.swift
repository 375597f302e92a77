/// The attribute values of a batch insert's new objects, one row after
/// another in declaration order (one flat array: no allocation per object).
package struct BatchRows {
    package let entity: EntityDescription
    package var count = 0
    package var values: [StoreValue] = []

    package init(entity: EntityDescription) { self.entity = entity }

    /// Values per row.
    package var width: Int { entity.attributes.count }

    /// A new object's required to-ones cannot be set by a batch insert.
    static func checkRequired(of e: EntityDescription) throws {
        if let p = e.toOnes.first(where: { !$0.isOptional }) {
            throw StoreError.validation(entity: e.name, key: p.name, reason: "a related object is required (batch inserts set attributes only)")
        }
    }
}

/// Unique attributes and unique-together groups among the rows of one batch.
struct BatchUniqueCheck {
    let entity: EntityDescription
    private let groups: [[PropertyDescription]]
    private var seen: [Set<[StoreValue]>]

    init(entity: EntityDescription) {
        self.entity = entity
        groups = entity.attributes.filter(\.isUnique).map { [$0] }
            + entity.uniqueTogether.map { names in names.compactMap { entity.byName[$0] } }
        seen = Array(repeating: [], count: groups.count)
    }

    /// Records a row's values; throws when one repeats a value of an earlier row.
    mutating func add(_ values: [StoreValue]) throws {
        for (i, group) in groups.enumerated() {
            let key = group.map { values[$0.slot] }
            // NULLs never collide, as in SQL.
            if key.contains(where: \.isNull) { continue }
            if !seen[i].insert(key).inserted {
                throw StoreError.constraintViolation(entity: entity.name, key: group.map(\.name).joined(separator: ", "),
                                                     value: key.map(\.description).joined(separator: ", "))
            }
        }
    }
}
