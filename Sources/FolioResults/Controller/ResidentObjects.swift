import FolioStore

/// The objects a controller keeps alive, by engine ID: every one without a
/// batch size, as Core Data does, else the objects of the most recent
/// batches read (``batchLimit`` of them), older ones let go.
///
/// ```swift
/// var resident = ResidentObjects(all: objects)
/// resident.keep(batch: ids, objects: loaded, around: id)
/// let object = resident[id]
/// ```
struct ResidentObjects {
    /// How many batches of objects stay when batching.
    static var batchLimit: Int { 8 }

    private(set) var objects: [Int64: ManagedObject]
    /// Each batch's rows, by the row it was read around, and the batches from the oldest.
    private var batches: [Int64: [Int64]] = [:]
    private var batchOrder: [Int64] = []

    /// Keeps `objects` (all of them, when not batching).
    init(all objects: [Int64: ManagedObject] = [:]) { self.objects = objects }

    var count: Int { objects.count }
    var isEmpty: Bool { objects.isEmpty }

    subscript(id: Int64) -> ManagedObject? {
        get { objects[id] }
        set { objects[id] = newValue }
    }

    /// Keeps the objects of a batch read around row `id` (the batch's `rows`),
    /// letting the oldest batches go past ``batchLimit``.
    mutating func keep(batch rows: [Int64], objects loaded: [Int64: ManagedObject], around id: Int64) {
        for (row, object) in loaded { objects[row] = object }
        batches[id] = rows
        batchOrder.append(id)
        while batchOrder.count > Self.batchLimit {
            for row in batches.removeValue(forKey: batchOrder.removeFirst()) ?? [] { objects[row] = nil }
        }
    }

    /// Follows new IDs (a save's permanent ones for temporary ones).
    mutating func rename(_ rows: [Int64: Int64]) {
        guard !rows.isEmpty else { return }
        for (old, new) in rows {
            if let object = objects.removeValue(forKey: old) { objects[new] = object }
        }
        guard !batches.isEmpty else { return }
        func row(_ id: Int64) -> Int64 { rows[id] ?? id }
        batches = Dictionary(uniqueKeysWithValues: batches.map { (row($0.key), $0.value.map(row)) })
        batchOrder = batchOrder.map(row)
    }

    /// Lets go of the objects whose rows `isKept` refuses; batches keep their rows.
    mutating func keepOnly(_ isKept: (Int64) -> Bool) {
        objects = objects.filter { isKept($0.key) }
    }
}
