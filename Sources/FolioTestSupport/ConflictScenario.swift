import FolioStore
import Foundation

/// A note's keys as text, for commands and comparisons.
public enum ConflictNotes {
    /// Sets `key` from its text (`nil` clears the optional tag).
    public static func set(_ note: ConflictNote, _ key: String, _ text: String) throws {
        switch key {
        case "title": note.title = text
        case "body": note.body = text
        case "stars": note.stars = Int(text) ?? 0
        case "tag": note.tag = text == "nil" ? nil : text
        default: throw PeerError(message: "no key \(key)")
        }
    }

    /// Every key's value as text.
    public static func values(_ note: ConflictNote) -> [String: String] {
        ["title": note.title, "body": note.body, "stars": String(note.stars), "tag": note.tag ?? "nil"]
    }
}

/// Two saves change one note, the peer's first: the local context's save,
/// under each merge policy, must leave in the store what the policy's rule
/// says, property by property, and never lose a key one side changed
/// without the rule saying so.
public struct ConflictScenario {
    public let policy: MergePolicy
    /// Each key's value before both saves.
    public let base: [String: String]
    /// The keys the peer changes, and to what.
    public let remote: [String: String]
    /// The keys the local context changes, and to what.
    public let local: [String: String]

    /// A round with random keys changed on each side (values never repeat, so every change is a real one).
    public static func random(_ policy: MergePolicy, round: Int, using rng: inout StoreSplitMix64) -> ConflictScenario {
        func value(_ key: String, _ side: String) -> String {
            key == "stars" ? String(round * 10 + (side == "l" ? 1 : side == "r" ? 2 : 3)) : "\(side)\(round)"
        }
        var remote: [String: String] = [:], local: [String: String] = [:]
        for key in ConflictNote.keys {
            if Bool.random(using: &rng) { remote[key] = value(key, "r") }
            if Bool.random(using: &rng) { local[key] = value(key, "l") }
        }
        return ConflictScenario(
            policy: policy, base: Dictionary(uniqueKeysWithValues: ConflictNote.keys.map { ($0, value($0, "b")) }),
            remote: remote, local: local)
    }

    /// What the store must hold for `key` after both saves, by the policy's rule.
    public func expected(_ key: String) -> String {
        let stored = remote[key] ?? base[key]!
        // No local change: nothing to save. No remote change: no conflict, the local save lands.
        guard !local.isEmpty else { return stored }
        guard !remote.isEmpty else { return local[key] ?? base[key]! }
        switch policy {
        case .error, .rollback: return stored
        case .mergeByPropertyObjectTrump: return local[key] ?? stored
        case .mergeByPropertyStoreTrump: return remote[key] ?? local[key] ?? base[key]!
        case .overwrite: return local[key] ?? base[key]!
        }
    }

    /// Whether the local save must fail (with a conflict naming the keys either side changed).
    public var mustFail: Bool { policy == .error && !local.isEmpty && !remote.isEmpty }

    /// Plays the round: `context` makes the note, the peer changes it, then
    /// `context` changes it and saves. Returns what differs from the rule (empty when all holds).
    public func play(in context: ObjectContext, peer: ConflictPeer) throws -> [String] {
        context.rollback()
        let note = ConflictNote(context: context)
        for (key, text) in base { try ConflictNotes.set(note, key, text) }
        try context.save()
        var problems: [String] = []
        let id = note.objectID.rowID
        if !remote.isEmpty {
            let answer = try peer.run(
                "set \(id) " + remote.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
            if answer != "saved" { problems.append("the peer's save failed: \(answer)") }
        }
        for (key, text) in local { try ConflictNotes.set(note, key, text) }
        context.mergePolicy = policy
        defer { context.mergePolicy = .error }
        do {
            try context.save()
            if mustFail { problems.append("the save succeeded") }
        } catch StoreError.conflict(let conflicts) {
            if !mustFail { problems.append("the save failed: \(conflicts)") }
            let named = conflicts.first?.keys.map(\.key) ?? []
            let changed = ConflictNote.keys.filter { local[$0] != nil || remote[$0] != nil }
            if conflicts.count != 1 || conflicts[0].id != id || named != changed {
                problems.append("the conflict names \(conflicts), not note \(id)'s keys \(changed)")
            }
            if context.hasChanges == false { problems.append("the failed save lost the local edit") }
        }
        context.rollback()
        context.refresh(note, mergeChanges: false)
        let stored = ConflictNotes.values(note)
        for key in ConflictNote.keys where stored[key] != expected(key) {
            problems.append("\(key) is \(stored[key] ?? "?"), the rule says \(expected(key))")
        }
        return problems.map { "\(policy) base \(base) remote \(remote) local \(local): \($0)" }
    }

    /// Every policy, `rounds` random rounds each: the problems found.
    public static func playAll(rounds: Int, seed: UInt64, in context: ObjectContext, peer: ConflictPeer) throws -> [String] {
        var rng = StoreSplitMix64(seed: seed)
        var problems: [String] = []
        let policies: [MergePolicy] = [.error, .mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite, .rollback]
        for round in 0..<rounds {
            for policy in policies {
                problems += try random(policy, round: round, using: &rng).play(in: context, peer: peer)
            }
        }
        return problems
    }
}
