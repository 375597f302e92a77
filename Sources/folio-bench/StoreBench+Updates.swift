import CSQLite
import FolioStore
import Foundation

extension StoreBench {
    /// Every item's indexed score changed in one save, against raw SQLite
    /// running the same UPDATEs (same rows, same values, same order) with a
    /// prepared statement in one transaction on its own file; `repeats`
    /// rounds, each side's median. The fetched objects stay alive through the
    /// timed save, as the raw side's values do: freeing them is not the save's work.
    func updateAll(_ context: ObjectContext, raw: RawSQLite) throws -> (ours: Double, raw: Double) {
        let items = Array(try context.fetch(FetchRequest<BenchItem>(sortBy: [SortDescriptor(\.name)])))
        precondition(items.count == rows)
        var ours: [Double] = [], base: [Double] = []
        try withExtendedLifetime(items) {
            for _ in 0..<repeats {
                var writes: [(id: Int64, score: Int)] = []
                writes.reserveCapacity(rows)
                for item in items {
                    item.score = (item.score + 1) % rows
                    writes.append((item.objectID.rowID, item.score))
                }
                ours.append(try storeMS { try context.save() })
                base.append(
                    try storeMS {
                        try raw.exec("BEGIN IMMEDIATE")
                        let s = try raw.prepare("UPDATE item SET score = ? WHERE id = ?")
                        defer { sqlite3_finalize(s) }
                        for write in writes {
                            sqlite3_bind_int64(s, 1, Int64(write.score))
                            sqlite3_bind_int64(s, 2, write.id)
                            guard sqlite3_step(s) == SQLITE_DONE else { throw raw.error() }
                            sqlite3_reset(s)
                        }
                        try raw.exec("COMMIT")
                    })
            }
        }
        return (ours.sorted()[ours.count / 2], base.sorted()[base.count / 2])
    }
}
