/// The objects a fetch returned, as a random-access collection. Without a
/// batch size every object is loaded; with one, only the IDs are held and
/// objects are loaded `batchSize` at a time as they are accessed (the last
/// batch stays resident), so memory stays bounded for any number of rows.
///
///     var request = FetchRequest<Animal>(sortBy: [SortDescriptor(\.commonName)])
///     request.fetchBatchSize = 20
///     for animal in try context.fetch(request) { print(animal.commonName) }
public struct FetchResults<Element: ManagedObject>: RandomAccessCollection {
    /// The IDs, in order.
    public let ids: [ObjectID]
    private let storage: Storage

    final class Storage {
        var all: [Element]?
        weak var context: ObjectContext?
        let batchSize: Int
        var window: [Element] = []
        var windowStart = -1

        init(all: [Element]?, context: ObjectContext?, batchSize: Int) {
            self.all = all
            self.context = context
            self.batchSize = batchSize
        }
    }

    init(objects: [Element]) {
        ids = objects.map { $0.objectID }  // a closure: a key path is projected at run time, per object
        storage = Storage(all: objects, context: nil, batchSize: 0)
    }

    init(ids: [ObjectID], context: ObjectContext, batchSize: Int) {
        self.ids = ids
        storage = Storage(all: nil, context: context, batchSize: batchSize)
    }

    /// Zero.
    public var startIndex: Int { 0 }
    /// The number of objects.
    public var endIndex: Int { ids.count }

    /// The object at `position`, loading its batch when needed.
    ///
    /// - Complexity: O(1), or one query for a batch not loaded yet.
    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < ids.count, "index \(position) is outside 0..<\(ids.count)")
        if let all = storage.all { return all[position] }
        let s = storage
        if s.windowStart < 0 || position < s.windowStart || position >= s.windowStart + s.window.count {
            let start = position - position % s.batchSize
            let slice = Array(ids[start..<Swift.min(ids.count, start + s.batchSize)])
            guard let context = s.context else { preconditionFailure("the context of these results no longer exists") }
            let loaded = (try? context.objects(with: slice, as: Element.self)) ?? []
            // Rows deleted since the IDs were fetched come back as faults.
            s.window = loaded.count == slice.count ? loaded : slice.map { context.object(with: $0, as: Element.self) }
            s.windowStart = start
        }
        return s.window[position - s.windowStart]
    }
}
