import FolioStore
import Foundation

/// A group whose to-many side the inverse row assigns into.
final class BenchGroup: ManagedObject {
    @Managed var name: String
    @Managed var members: Set<BenchMember>

    override class var entity: EntityDescription {
        EntityDescription(
            BenchGroup.self,
            properties: [
                .attribute(\BenchGroup.name, "name"),
                .toMany(\BenchGroup.members, "members", inverse: \BenchMember.group),
            ])
    }
}

/// A member assigned to a ``BenchGroup`` through its to-one.
final class BenchMember: ManagedObject {
    @Managed var name: String
    @Managed var group: BenchGroup?

    override class var entity: EntityDescription {
        EntityDescription(
            BenchMember.self,
            properties: [
                .attribute(\BenchMember.name, "name"),
                .toOne(\BenchMember.group, "group", inverse: \BenchGroup.members),
            ])
    }
}

extension StoreBench {
    /// How many to-one assignments the inverse row makes unless `--assignments` says.
    static let defaultInverseAssignments = 100_000

    /// The inverse row: `assignments` saved members each assigned to
    /// one group whose `members` side is loaded, against the same work on a
    /// group whose side is not loaded (the baseline), median of `repeats`
    /// each, alternating which goes first. Undo stays on, as in an app.
    func inverseRow() throws -> (loaded: Double, unloaded: Double) {
        var loaded: [Double] = [], unloaded: [Double] = []
        for round in 0..<repeats {
            for loading in round % 2 == 0 ? [true, false] : [false, true] {
                let ms = try inverseAssignmentsMS(loading: loading, count: assignments)
                if loading { loaded.append(ms) } else { unloaded.append(ms) }
            }
        }
        return (loaded.sorted()[repeats / 2], unloaded.sorted()[repeats / 2])
    }

    /// Times the assignments alone, into a fresh in-memory store.
    private func inverseAssignmentsMS(loading: Bool, count: Int) throws -> Double {
        let container = try PersistentContainer(schema: Schema([BenchGroup.self, BenchMember.self]), path: nil)
        let context = container.viewContext
        let members = (0..<count).map { i -> BenchMember in
            let m = BenchMember(context: context)
            m.name = "member \(i)"
            return m
        }
        let group = BenchGroup(context: context)
        group.name = "group"
        try context.save()
        // A fault again, so that only `loading` reads its members.
        context.refresh(group, mergeChanges: false)
        if loading { precondition(group.members.isEmpty) }
        let ms = storeMS {
            for m in members { m.group = group }
        }
        precondition(members.last?.group === group)
        return ms
    }
}
