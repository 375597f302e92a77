import FolioChanges

extension TableSnapshot {
    /// The batch that turns `old` into this snapshot under UIKit's rules:
    /// sections and items that kept their order relative to each other (a
    /// longest increasing subsequence) stay; the rest move. Items that
    /// change section, or whose section appears or goes, move or are
    /// deleted and inserted. Reloaded items that stay become reloads;
    /// reloaded items that move become a delete plus an insert. Moved items
    /// are always reconfigured: an item moves because its data changed, and
    /// a snapshot of fetched results marks only the items that stayed.
    ///
    /// - Complexity: O(n log n) for n items and sections.
    func batch(from old: TableSnapshot) -> (batch: TableBatch, reconfigure: [IndexPath]) {
        var batch = TableBatch()
        let newSectionIndex = Dictionary(uniqueKeysWithValues: sectionIdentifiers.enumerated().map { ($1, $0) })
        let oldSectionIndex = Dictionary(uniqueKeysWithValues: old.sectionIdentifiers.enumerated().map { ($1, $0) })
        var survivors: [(old: Int, new: Int)] = []
        for (index, section) in old.sectionIdentifiers.enumerated() {
            if let new = newSectionIndex[section] { survivors.append((index, new)) } else { batch.deletedSections.append(index) }
        }
        batch.insertedSections = sectionIdentifiers.indices.filter { oldSectionIndex[sectionIdentifiers[$0]] == nil }
        let staying = Set(longestIncreasingSubsequence(survivors.map(\.new)).map { survivors[$0].old })
        batch.movedSections = survivors.filter { !staying.contains($0.old) }.map { TableBatch.SectionMove(from: $0.old, to: $0.new) }

        var reconfigure: [IndexPath] = []
        let oldPaths = old.pathsByItem()
        for (newSection, section) in sectionIdentifiers.enumerated() {
            let items = itemIdentifiers(inSection: section)
            let oldSection = oldSectionIndex[section]
            var sameSection: [(old: Int, new: Int, item: ItemID)] = []
            for (row, item) in items.enumerated() {
                let newPath = IndexPath(row: row, section: newSection)
                guard let from = oldPaths[item] else {
                    batch.insertedRows.append(newPath)
                    continue
                }
                let fromGone = newSectionIndex[old.sectionIdentifiers[from.section]] == nil
                if oldSection == nil || fromGone || reloadedItemIdentifiers.contains(item) && from.section != oldSection {
                    batch.deletedRows.append(from)
                    batch.insertedRows.append(newPath)
                } else if from.section != oldSection {
                    batch.movedRows.append(TableBatch.RowMove(from: from, to: newPath))
                    reconfigure.append(newPath)
                } else {
                    sameSection.append((from.row, row, item))
                }
            }
            let kept = Set(longestIncreasingSubsequence(sameSection.map(\.old)).map { sameSection[$0].old })
            for entry in sameSection {
                let from = IndexPath(row: entry.old, section: oldSection!)
                let to = IndexPath(row: entry.new, section: newSection)
                if kept.contains(entry.old) {
                    if reloadedItemIdentifiers.contains(entry.item) {
                        batch.reloadedRows.append(from)
                    } else if reconfiguredItemIdentifiers.contains(entry.item) {
                        reconfigure.append(to)
                    }
                } else if reloadedItemIdentifiers.contains(entry.item) {
                    batch.deletedRows.append(from)
                    batch.insertedRows.append(to)
                } else {
                    batch.movedRows.append(TableBatch.RowMove(from: from, to: to))
                    reconfigure.append(to)
                }
            }
        }
        for (section, id) in old.sectionIdentifiers.enumerated() {
            for (row, item) in old.itemIdentifiers(inSection: id).enumerated() where sectionOfItem[item] == nil {
                batch.deletedRows.append(IndexPath(row: row, section: section))
            }
        }
        return (batch, reconfigure)
    }

    /// Every item's index path.
    ///
    /// - Complexity: O(items).
    func pathsByItem() -> [ItemID: IndexPath] {
        var paths: [ItemID: IndexPath] = [:]
        paths.reserveCapacity(numberOfItems)
        for (section, id) in sectionIdentifiers.enumerated() {
            for (row, item) in (itemsBySection[id] ?? []).enumerated() {
                paths[item] = IndexPath(row: row, section: section)
            }
        }
        return paths
    }
}
