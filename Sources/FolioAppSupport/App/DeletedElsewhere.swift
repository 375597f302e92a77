/// The object a save was to change was deleted by another program (or
/// another screen) before the save could take the store's write lock:
/// nothing was written.
///
/// ```swift
/// guard let planet = try? context.existingObject(with: id) else { throw DeletedElsewhere() }
/// ```
public struct DeletedElsewhere: Error, CustomStringConvertible {
    public init() {}

    public var description: String { "it was deleted elsewhere in the meantime" }
}
