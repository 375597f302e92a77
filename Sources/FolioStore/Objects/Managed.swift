/// Marks a stored property of a ``ManagedObject`` subclass. Reading it fires
/// the object's fault (loads the row) when needed; assigning it records the
/// change (committed value kept, undo registered, inverse updated).
///
///     final class Animal: ManagedObject {
///         @Managed var commonName: String
///         @Managed var classification: Classification?
///         @Managed var zoos: Set<Zoo>
///     }
///
/// Every `@Managed` property must also be declared in the class's `entity`.
@propertyWrapper
public struct Managed<Value: ManagedValue> {
    /// A property with no value of its own: the object holds it.
    public init() {}

    /// Not available: `@Managed` works only inside a ``ManagedObject``.
    @available(*, unavailable, message: "@Managed can only be used on properties of ManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError("@Managed outside a ManagedObject") }
        set { fatalError("@Managed outside a ManagedObject") }
    }

    /// Reads or writes the value through the object's context.
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Managed<Value>>
    ) -> Value {
        get {
            let property = object.meta.property(wrappedKeyPath)
            if let probe = object.probe { return probe.read(property, on: object) }
            return Value._decode(object.slot(property), in: object.managedContext)
        }
        set {
            if object.probe != nil { return }  // a probe only records reads
            let property = object.meta.property(wrappedKeyPath)
            object.liveContext(for: property).set(object, property, newValue._slot)
        }
    }
}
