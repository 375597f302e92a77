/// A type a `@Managed` property can hold: an ``AttributeValue``, a
/// ``ManagedObject`` (to-one), `Set` of objects (to-many), `Array` of objects
/// (ordered to-many), or an `Optional` of an attribute or object.
///
/// You do not conform to this protocol yourself; conform to
/// ``AttributeValue`` or ``CodableAttributeValue`` instead.
///
///     @Managed var name: String              // attribute
///     @Managed var classification: Classification?   // to-one
///     @Managed var zoos: Set<Zoo>            // to-many
public protocol ManagedValue {
    /// What kind of property holds this type (store use only).
    static var _managedKind: ManagedValueKind { get }
    /// Rebuilds a value from the store's slot (store use only).
    static func _decode(_ slot: ManagedSlot, in context: ObjectContext?) -> Self
    /// The slot for this value (store use only).
    var _slot: ManagedSlot { get }
    /// The slot that means "nil" for an optional of this type (store use only).
    static var _nilSlot: ManagedSlot { get }
}

/// The kind of a managed property, derived from its Swift type.
///
///     String._managedKind   // an attribute stored as text
public struct ManagedValueKind: Sendable {
    enum Storage: Sendable {
        case attribute(StoreType)
        case toOne(ManagedObject.Type)
        case toMany(ManagedObject.Type, ordered: Bool)
    }
    let storage: Storage
    let optional: Bool
}

/// A property's value as the store holds it inside an object.
///
/// Opaque outside the store; it exists so that ``ManagedValue`` can be public.
public struct ManagedSlot {
    enum Storage {
        case value(StoreValue)
        case one(ObjectID?)
        case many([ObjectID])
    }
    let storage: Storage
}

extension Optional: ManagedValue where Wrapped: ManagedValue {
    /// The wrapped type's kind, marked optional.
    public static var _managedKind: ManagedValueKind {
        ManagedValueKind(storage: Wrapped._managedKind.storage, optional: true)
    }
    /// `nil` for a null slot, otherwise the wrapped value.
    public static func _decode(_ slot: ManagedSlot, in context: ObjectContext?) -> Self {
        switch slot.storage {
        case .value(.null), .one(nil): return nil
        default: return Wrapped._decode(slot, in: context)
        }
    }
    /// The wrapped value's slot, or the wrapped type's null slot.
    public var _slot: ManagedSlot { self?._slot ?? Wrapped._nilSlot }
    /// The wrapped type's null slot.
    public static var _nilSlot: ManagedSlot { Wrapped._nilSlot }
}

extension Set: ManagedValue where Element: ManagedObject {
    /// A to-many relationship.
    public static var _managedKind: ManagedValueKind {
        ManagedValueKind(storage: .toMany(Element.self, ordered: false), optional: false)
    }
    /// The objects for the slot's IDs, faulted as needed.
    public static func _decode(_ slot: ManagedSlot, in context: ObjectContext?) -> Self {
        guard case .many(let ids) = slot.storage else { return [] }
        return Set(ids.map { context!.object(with: $0) as! Element })
    }
    /// The members' IDs.
    public var _slot: ManagedSlot { ManagedSlot(storage: .many(map(\.objectID))) }
    /// An empty set.
    public static var _nilSlot: ManagedSlot { ManagedSlot(storage: .many([])) }
}

extension Array: ManagedValue where Element: ManagedObject {
    /// An ordered to-many relationship.
    public static var _managedKind: ManagedValueKind {
        ManagedValueKind(storage: .toMany(Element.self, ordered: true), optional: false)
    }
    /// The objects for the slot's IDs, in order.
    public static func _decode(_ slot: ManagedSlot, in context: ObjectContext?) -> Self {
        guard case .many(let ids) = slot.storage else { return [] }
        return ids.map { context!.object(with: $0) as! Element }
    }
    /// The members' IDs in order.
    public var _slot: ManagedSlot { ManagedSlot(storage: .many(map(\.objectID))) }
    /// An empty array.
    public static var _nilSlot: ManagedSlot { ManagedSlot(storage: .many([])) }
}
