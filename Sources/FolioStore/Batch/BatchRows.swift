/// The values of a batch insert's new objects, one row after another: the
/// attributes in declaration order, then each to-one's related row ID or
/// NULL (one flat array: no allocation per object).
package struct BatchRows {
    package let entity: EntityDescription
    package var count = 0
    package var values: [StoreValue] = []

    package init(entity: EntityDescription) { self.entity = entity }

    /// The columns of each row, in the order of its values.
    package var columns: [PropertyDescription] { entity.attributes + entity.toOnes }

    /// Values per row.
    package var width: Int { entity.attributes.count + entity.toOnes.count }

    /// Where a property's value sits in a row.
    static func offset(of p: PropertyDescription, in e: EntityDescription) -> Int {
        p.isToOne ? e.attributes.count + p.slot : p.slot
    }

    /// A row of defaults: the attributes' default values and no related objects.
    static func defaults(of e: EntityDescription) -> [StoreValue] {
        e.batchDefaults + Array(repeating: .null, count: e.toOnes.count)
    }
}

/// Unique attributes and unique-together groups among the rows of one batch.
struct BatchUniqueCheck {
    let entity: EntityDescription
    /// Unique attributes, checked by their value alone: no array made per row.
    private let singles: [PropertyDescription]
    private var seenSingles: [Set<StoreValue>]
    private let groups: [[PropertyDescription]]
    private var seen: [Set<[StoreValue]>]

    init(entity: EntityDescription) {
        self.entity = entity
        singles = entity.attributes.filter(\.isUnique)
        seenSingles = Array(repeating: [], count: singles.count)
        groups = entity.uniqueTogether.map { names in names.compactMap { entity.byName[$0] } }
        seen = Array(repeating: [], count: groups.count)
    }

    /// Records a row's values; throws when one repeats a value of an earlier row.
    mutating func add(_ values: [StoreValue]) throws {
        for (i, p) in singles.enumerated() {
            let value = values[p.slot]
            // NULLs never collide, as in SQL.
            if value.isNull { continue }
            if !seenSingles[i].insert(value).inserted {
                throw StoreError.constraintViolation(entity: entity.name, key: p.name, value: value.description)
            }
        }
        for (i, group) in groups.enumerated() {
            let key = group.map { values[$0.slot] }
            if key.contains(where: \.isNull) { continue }
            if !seen[i].insert(key).inserted {
                throw StoreError.constraintViolation(
                    entity: entity.name, key: group.map(\.name).joined(separator: ", "),
                    value: key.map(\.description).joined(separator: ", "))
            }
        }
    }
}
