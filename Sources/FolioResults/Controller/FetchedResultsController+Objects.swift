import FolioStore

extension FetchedResultsController {
    /// Every object (no batching), to keep alive as Core Data does.
    func materialiseAll() throws -> [Int64: ManagedObject] {
        let objects = try managedObjectContext.fetch(fetchRequestForAll())
        return Dictionary(objects.map { (engineID($0.objectID), $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Loads the batch of `fetchBatchSize` rows around `indexPath`, keeping the
    /// most recent batches resident and letting older ones go.
    func materialiseBatch(around indexPath: IndexPath, id: Int64) -> ManagedObject {
        let size = max(1, fetchRequest.fetchBatchSize)
        let count = shownRowCount(inSection: indexPath.section)
        let start = indexPath.row / size * size
        let ids = shownIDs(inSection: indexPath.section, rows: start..<min(count, start + size))
        let objects = (try? prefetch(ids)) ?? [:]
        resident.keep(batch: ids, objects: objects, around: id)
        return resident[id] ?? managedObjectContext.object(with: objectID(id))
    }
}
