/// One fetched object's ID and the values of the requested key paths.
///
///     let keys = try context.fetchKeys(request, keyPaths: [\Animal.classification?.order, \Animal.commonName])
///     keys[0].values   // [.text("Primates"), .text("Black-handed Spider Monkey")]
package struct FetchedKeys: Sendable, Hashable {
    /// The object's ID.
    package let id: ObjectID
    /// The values, in the order of the requested key paths (to-one relationships as row IDs).
    package let values: [StoreValue]
}
