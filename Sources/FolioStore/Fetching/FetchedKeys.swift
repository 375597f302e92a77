/// One fetched object's ID and the values of the requested key paths.
///
///     let keys = try context.fetchKeys(request, keyPaths: [\Animal.classification?.order, \Animal.commonName])
///     keys[0].values   // [.text("Primates"), .text("Black-handed Spider Monkey")]
public struct FetchedKeys: Sendable, Hashable {
    /// The object's ID.
    public let id: ObjectID
    /// The values, in the order of the requested key paths (to-one relationships as row IDs).
    public let values: [StoreValue]
}
