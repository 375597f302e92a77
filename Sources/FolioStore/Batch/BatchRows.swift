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
