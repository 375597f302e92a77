/// One object a save could not write because another save (another context,
/// process or machine) changed or deleted its row since this context read
/// it: what ``StoreError/conflict(_:)`` lists, as Core Data's merge conflicts do.
///
///     catch StoreError.conflict(let conflicts) {
///         for c in conflicts { print(c.entity, c.id, c.keys.map(\.key)) }
///     }
public struct SaveConflict: Sendable, Equatable, CustomStringConvertible {
    /// What the two saves did to the object.
    public enum Kind: Sendable, Equatable {
        /// Both changed it.
        case changed
        /// It was changed here and deleted by the other save.
        case deletedElsewhere
        /// It was deleted here and changed by the other save.
        case changedBeforeDelete
    }

    /// A key whose stored value and this context's value differ.
    public struct Key: Sendable, Equatable {
        /// The attribute's or relationship's name.
        public var key: String
        /// The value in the store now (`.null` when the row is gone).
        public var stored: StoreValue
        /// The value in this context.
        public var context: StoreValue

        /// A key's two values.
        ///
        ///     SaveConflict.Key(key: "title", stored: .text("B"), context: .text("C"))
        public init(key: String, stored: StoreValue, context: StoreValue) {
            self.key = key
            self.stored = stored
            self.context = context
        }
    }

    /// The object's entity name.
    public var entity: String
    /// The object's row ID in its entity.
    public var id: Int64
    /// How the two saves met.
    public var kind: Kind
    /// The keys whose values differ, in the entity's order (relationships as row IDs).
    public var keys: [Key]

    /// A conflict, as a test might expect it.
    ///
    ///     SaveConflict(entity: "Note", id: 3, kind: .changed, keys: [.init(key: "title", stored: .text("B"), context: .text("C"))])
    public init(entity: String, id: Int64, kind: Kind, keys: [Key]) {
        self.entity = entity
        self.id = id
        self.kind = kind
        self.keys = keys
    }

    /// A sentence, e.g. `Note 3 was changed by another save: title is 'B' there, 'C' here`.
    public var description: String {
        let values = keys.map { "\($0.key) is \($0.stored) there, \($0.context) here" }.joined(separator: ", ")
        let changes = keys.map { "\($0.key) \($0.context)" }.joined(separator: ", ")
        switch kind {
        case .changed:
            return "\(entity) \(id) was changed by another save" + (values.isEmpty ? "" : ": " + values)
        case .deletedElsewhere:
            return "\(entity) \(id) was deleted by another save"
                + (changes.isEmpty ? "" : ", so its changes here (\(changes)) cannot be saved")
        case .changedBeforeDelete:
            return "\(entity) \(id) was changed by another save since it was read here, so it was not deleted"
                + (values.isEmpty ? "" : ": " + values)
        }
    }
}
