import FolioLocking
import FolioStore
import Synchronization

/// A line for each step of a replica's sync (its rounds, each entry pushed
/// and what the server left of it, each pull's rows), for a process that
/// asks: the partition test's replicas write them beside their answers, so
/// a failing run shows how a save went. Off, a step costs an atomic load.
///
///     ReplicaTrace.send { line in print(line) }
package enum ReplicaTrace {
    /// Boxed: see ``ReplicaJournal``'s handler.
    private struct Sink {
        let write: @Sendable (String) -> Void
    }
    private static let sink = LockedValue<Sink?>(nil)
    private static let isOn = Atomic<Bool>(false)

    /// Sends every trace line of this process to `write` (nil: none).
    package static func send(to write: (@Sendable (String) -> Void)?) {
        sink.withLock { $0 = write.map(Sink.init) }
        isOn.store(write != nil, ordering: .releasing)
    }

    /// Writes a line when tracing is on (the line is not made otherwise).
    package static func note(_ line: @autoclosure () -> String) {
        guard isOn.load(ordering: .acquiring), let sink = sink.withLock({ $0 }) else { return }
        sink.write(line())
    }

    static func describe(_ entry: OutboxEntry) -> String {
        var parts: [String] = []
        for i in entry.inserts {
            parts.append(
                "ins \(i.entity)#\(i.id){"
                    + i.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.value)" }.joined(separator: ",") + "}")
        }
        for u in entry.updates {
            let keys = u.keys.indices.map { "\(u.keys[$0]):\(u.old[$0].value)>\(u.new[$0].value)" }
            parts.append("upd \(u.entity)#\(u.id)@\(u.seen.map(String.init) ?? "?"){\(keys.joined(separator: ","))}")
        }
        for d in entry.deletes { parts.append("del \(d.entity)#\(d.id)@\(d.seen.map(String.init) ?? "?")") }
        for l in entry.adds { parts.append("add \(l.entity)#\(l.owner).\(l.property)+\(l.member)") }
        for l in entry.removes { parts.append("rem \(l.entity)#\(l.owner).\(l.property)-\(l.member)") }
        return parts.joined(separator: " ")
    }

    static func describe(_ written: ReplicaPush.Written) -> String {
        func rows(_ rows: some Sequence<RowKey>) -> String { rows.sorted().map { "\($0.entity)#\($0.id)" }.joined(separator: ",") }
        var parts = written.versions.sorted { $0.key < $1.key }.map {
            "\($0.key.entity)#\($0.key.id)->\($0.value.map(String.init) ?? "gone")"
        }
        for (name, set) in [("refresh", written.refresh), ("gone", written.gone), ("dropped", written.dropped)] where !set.isEmpty {
            parts.append("\(name) \(rows(set))")
        }
        if !written.conflicts.isEmpty { parts.append("conflicts \(written.conflicts)") }
        return parts.joined(separator: " ")
    }

    static func describe(_ row: ServerRow, _ columns: [String]) -> String {
        "#\(row.id)@\(row.version){" + zip(columns, row.values).map { "\($0)=\($1)" }.joined(separator: ",") + "}"
    }
}
