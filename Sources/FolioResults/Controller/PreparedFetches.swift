import FolioStore

/// The key fetches a controller has translated for its current request
/// (see ``PreparedKeyFetch``); emptied whenever the request changes.
struct PreparedFetches<Entity: ManagedObject> {
    var keys: PreparedKeyFetch<Entity>?
    var keysAndRelated: PreparedKeyFetch<Entity>?
    var related: PreparedKeyFetch<Entity>?
}
