import FolioStore
import Foundation

/// What the sync could not settle (the conflicts `.error` leaves for the
/// app, or why the server refused a save), kept in the replica file under
/// `replica_unsettled` with the outbox entry it holds up (always the oldest
/// waiting one: pushes keep commit order). Every container on the file
/// shows it, in any process and after a relaunch, for as long as that entry
/// waits; once it is pushed (by whichever container syncs), it is gone.
struct Unsettled: Codable, Equatable {
    struct Conflict: Codable, Equatable {
        var entity: String
        var id: Int64
        var kind: String
        var keys: [String]
        var stored: [ReplicaValue]
        var context: [ReplicaValue]
    }

    var seq: Int64 = 0
    var conflicts: [Conflict] = []
    var problem: String?

    var isEmpty: Bool { conflicts.isEmpty && problem == nil }

    init() {}

    init(seq: Int64, conflicts: [SaveConflict], problem: String?) {
        self.seq = seq
        self.problem = problem
        self.conflicts = conflicts.map { c in
            Conflict(
                entity: c.entity, id: c.id, kind: Self.name(c.kind), keys: c.keys.map(\.key),
                stored: c.keys.map { ReplicaValue($0.stored) }, context: c.keys.map { ReplicaValue($0.context) })
        }
    }

    var saveConflicts: [SaveConflict] {
        conflicts.map { c in
            SaveConflict(
                entity: c.entity, id: c.id, kind: Self.kind(c.kind),
                keys: c.keys.indices.map { SaveConflict.Key(key: c.keys[$0], stored: c.stored[$0].value, context: c.context[$0].value) })
        }
    }

    private static func name(_ kind: SaveConflict.Kind) -> String {
        switch kind {
        case .changed: "changed"
        case .deletedElsewhere: "deletedElsewhere"
        case .changedBeforeDelete: "changedBeforeDelete"
        }
    }

    private static func kind(_ name: String) -> SaveConflict.Kind {
        switch name {
        case "deletedElsewhere": .deletedElsewhere
        case "changedBeforeDelete": .changedBeforeDelete
        default: .changed
        }
    }
}

extension ReplicaFile {
    /// What holds up the oldest waiting save, as the last sync left it; empty when that save is gone.
    func unsettled() throws -> Unsettled {
        guard let text = try metadata("replica_unsettled"),
            let stored = try? JSONDecoder().decode(Unsettled.self, from: Data(text.utf8)),
            let oldest = try oldestWaiting(), oldest == stored.seq
        else { return Unsettled() }
        return stored
    }

    /// Records what holds up the oldest waiting save (nothing: forgets it).
    func setUnsettled(_ conflicts: [SaveConflict], problem: String?) throws {
        let oldest = try oldestWaiting() ?? 0
        let new = Unsettled(seq: oldest, conflicts: conflicts, problem: problem)
        if new.isEmpty {
            guard try metadata("replica_unsettled") != nil else { return }
            try write { try connection.run("DELETE FROM folio_metadata WHERE key = 'replica_unsettled'") }
        } else if try unsettled() != new {
            try write { try setMetadata("replica_unsettled", String(decoding: try JSONEncoder().encode(new), as: UTF8.self)) }
        }
    }
}
