import FolioStore

extension FetchedResultsController {
    /// How many batches of objects stay resident when batching.
    static var residentBatchLimit: Int { 8 }

    /// A section's objects in order.
    /// - Complexity: O(m log n) for m objects.
    func objects(inSection index: Int) -> [Entity] {
        let count = engine.numberOfRows(inSection: index)
        return (0..<count).map { object(at: IndexPath(row: $0, section: index)) }
    }

    /// Every object (no batching), to keep alive as Core Data does.
    func materialiseAll() throws -> [Int64: Entity] {
        let objects = try managedObjectContext.fetch(fetchRequestForAll())
        return Dictionary(objects.map { ($0.objectID.rowID, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Loads the batch of `fetchBatchSize` rows around `indexPath`, keeping the
    /// most recent batches resident and letting older ones go.
    func materialiseBatch(around indexPath: IndexPath, id: Int64) -> Entity {
        let size = max(1, fetchRequest.fetchBatchSize)
        let count = engine.numberOfRows(inSection: indexPath.section)
        let start = indexPath.row / size * size
        let ids = engine.ids(inSection: indexPath.section, rows: start..<min(count, start + size))
        let objects = (try? prefetch(ids)) ?? [:]
        for (row, object) in objects { resident[row] = object }
        residentBatches[id] = ids
        batchOrder.append(id)
        while batchOrder.count > Self.residentBatchLimit {
            for row in residentBatches.removeValue(forKey: batchOrder.removeFirst()) ?? [] { resident[row] = nil }
        }
        if let object = resident[id] { return object }
        return managedObjectContext.object(with: objectID(id)) as! Entity
    }

    func forget(_ id: Int64) { resident[id] = nil }
}
