import FolioStore
import Foundation

/// The contexts whose store was opened read-only (a write-protected file
/// shown in an app): their screens say so (a ``ResultsTableController``'s
/// hint bar), and every save a screen starts
/// (`saveWhenWritable(_:touching:_:then:)`)
/// is refused at once with the reason, before anything changes.
///
/// ```swift
/// if ReadOnlyStores.contains(context) { presentError(title: "Read-Only", message: ReadOnlyStores.reason) }
/// ```
@MainActor
public enum ReadOnlyStores {
    /// Why nothing can be changed, as a screen says it.
    ///
    /// ```swift
    /// presentError(title: "Read-Only", message: ReadOnlyStores.reason)
    /// ```
    public nonisolated static let reason =
        "This store is write-protected, so it is open read-only: nothing can be changed here. "
        + "Make the file and its folder writable, then open it again to make changes."

    /// What the hint bar shows while a read-only store is on screen.
    ///
    /// ```swift
    /// application?.status = ReadOnlyStores.status
    /// ```
    public static let status = "read-only"

    private final class Entry {
        weak var context: ObjectContext?
        init(_ context: ObjectContext) { self.context = context }
    }

    private static var entries: [ObjectIdentifier: Entry] = [:]

    /// Records that `context`'s store was opened read-only (held weakly).
    ///
    /// ```swift
    /// let container = try PersistentContainer(schema: schema, store: .file(path), readOnly: true)
    /// ReadOnlyStores.mark(container.viewContext)
    /// ```
    public static func mark(_ context: ObjectContext) {
        entries = entries.filter { $0.value.context != nil }
        entries[ObjectIdentifier(context)] = Entry(context)
    }

    /// Whether `context`'s store was opened read-only.
    ///
    /// ```swift
    /// if ReadOnlyStores.contains(context) { application?.status = ReadOnlyStores.status }
    /// ```
    public static func contains(_ context: ObjectContext) -> Bool {
        entries[ObjectIdentifier(context)]?.context === context
    }

    /// The refusal a save on a read-only store ends with.
    ///
    /// ```swift
    /// if ReadOnlyStores.contains(context) { throw ReadOnlyStores.Refusal() }
    /// ```
    public struct Refusal: Error, CustomStringConvertible {
        /// The refusal.
        ///
        /// ```swift
        /// throw ReadOnlyStores.Refusal()
        /// ```
        public init() {}

        /// ``ReadOnlyStores/reason``.
        ///
        /// ```swift
        /// alert.message = ReadOnlyStores.Refusal().description
        /// ```
        public var description: String { ReadOnlyStores.reason }
    }
}
