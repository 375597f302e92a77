import FolioLocking
import Foundation

/// A key path built from Core Data's string form ("classification.order"):
/// a subscript key path on the object, remembered with its name so the
/// schema resolves it by name at fetch time (and names it in the error).
package enum NamedKeyPath {
    // One entry per distinct key string a program uses, so it stays small.
    private static let names = LockedValue<[KeyPathKey: String]>([:])

    /// The key path for `name` on `Root`.
    package static func make<Root: ManagedObject>(_ name: String, on root: Root.Type) -> any KeyPath<Root, StoreKey> & Sendable {
        let keyPath = \Root.[storeKeyPath: name]
        names.withLock { $0[KeyPathKey(keyPath)] = name }
        return keyPath
    }

    /// The string a key path was made from, if it was made by `make`.
    static func name(of keyPath: AnyKeyPath) -> String? {
        names.withLock { $0[KeyPathKey(keyPath)] }
    }
}

/// A stored value as a sort key: ordered as the store orders values.
package struct StoreKey: Comparable, Sendable {
    /// The value.
    package let value: StoreValue

    /// Ordered by `StoreValue.compare`.
    package static func < (a: StoreKey, b: StoreKey) -> Bool {
        StoreValue.compare(a.value, b.value) == .orderedAscending
    }
}

extension ManagedObject {
    /// The value at a dotted key ("classification.order"), through to-one
    /// relationships; the subscript behind Core Data's string key forms. A
    /// fetch resolves the key by name and never reads it; only a caller's
    /// own `SortDescriptor.compare` does, which cannot throw, so a key the
    /// schema lacks traps there (the fetch has refused it with an error).
    ///
    ///     animal[storeKeyPath: "classification.order"].value   // .text("Primates")
    package subscript(storeKeyPath key: String) -> StoreKey {
        var current: ManagedObject = self
        let names = key.split(separator: ".").map(String.init)
        for (index, name) in names.enumerated() {
            guard let p = current.entityDescription.byName[name] else {
                preconditionFailure("\(current.entityDescription.name) has no property '\(name)' (in '\(key)')")
            }
            if index == names.count - 1 { return StoreKey(value: current.storeValue(forKey: name)) }
            guard case .toOne = p.kind, let next = (current as Any)[keyPath: p.declaredKeyPath] as? ManagedObject else {
                return StoreKey(value: .null)
            }
            current = next
        }
        return StoreKey(value: .null)
    }
}

extension SortDescriptor where Compared: ManagedObject {
    /// Core Data's `NSSortDescriptor(key:ascending:)`: a dotted key, checked
    /// against the schema when the request is fetched.
    ///
    ///     SortDescriptor<Animal>(key: "classification.order", ascending: true)
    public init(key: String, ascending: Bool) {
        self.init(NamedKeyPath.make(key, on: Compared.self), order: ascending ? .forward : .reverse)
    }
}
