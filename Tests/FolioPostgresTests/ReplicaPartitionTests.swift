import FolioPostgres
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Three replicas, each in a process of its own, make random saves while the
/// test cuts them off at random: the server stopped, their connections
/// killed, a replica process killed mid-sync. Now and then, and at the end,
/// everything is healed: every replica must then equal the server, what the
/// acknowledged saves allow (``PartitionModel``), and every report its
/// controller made must have passed UIKit's batch rules and matched a fresh
/// fetch. The seed is printed; `FOLIO_SEED` replays the test's choices (not
/// the timing), `FOLIO_PARTITION_STEPS` makes a longer run (default 120).
/// Each replica process traces its sync (see ``SyncTrace``); a failure
/// shows the trace of the objects it names, and `FOLIO_REPLICA_TRACE` (a
/// path prefix) keeps the whole trace there.
struct PeerError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

@MainActor
@Suite struct ReplicaPartitionTests {
    let worker = StoreChildProcess.sibling("folio-store-worker")

    /// One replica process, restarted on the same file after a kill.
    @MainActor final class Peer {
        let index: Int
        let address: String
        var policy: String
        let trace: String
        var process: StoreChildProcess
        var next = 0
        private var problemsSeen = 0
        /// Every process this peer ran, for their problem lines.
        var processes: [StoreChildProcess] = []

        init(index: Int, address: String, policy: String, trace: String, worker: URL) async throws {
            self.index = index
            self.address = address
            self.policy = policy
            self.trace = trace
            process = try StoreChildProcess(executable: worker, arguments: ["partition", address, policy, trace])
            processes.append(process)
            guard await process.waitForLine(timeout: 120, { $0 == "ready" || $0.hasPrefix("failed") })?.line == "ready" else {
                throw PeerError(message: "replica \(index) did not start: \(process.lines.map(\.line))")
            }
        }

        /// Sends a command and waits for its answer (the answer's words after the command's number).
        func ask(_ command: String) async -> String {
            next += 1
            let tag = "\(next) "
            process.send(tag + command)
            guard let line = await process.waitForLine(timeout: 300, { $0.hasPrefix(tag) && !$0.hasPrefix(tag + "dump ") }) else {
                return "died"
            }
            let problems = process.lines.map(\.line).filter { $0.hasPrefix("problem ") }
            let news = problems.count > problemsSeen ? " [" + problems[problemsSeen...].joined(separator: "; ") + "]" : ""
            problemsSeen = problems.count
            return String(line.line.dropFirst(tag.count)) + news
        }

        /// The lines of a multi-line answer to the last command.
        func lines(_ kind: String) -> [String] {
            let tag = "\(next) \(kind) "
            return process.lines.map(\.line).filter { $0.hasPrefix(tag) }.map { String($0.dropFirst(tag.count)) }
        }

        func restart(worker: URL) async throws {
            await process.kill()
            process = try StoreChildProcess(executable: worker, arguments: ["partition", address, policy, trace])
            processes.append(process)
            next = 0
            problemsSeen = 0
            guard await process.waitForLine(timeout: 120, { $0 == "ready" || $0.hasPrefix("failed") })?.line == "ready" else {
                throw PeerError(message: "replica \(index) did not restart: \(process.lines.map(\.line))")
            }
        }
    }

    @Test func randomSavesOnReplicasCutOffAtRandomConvergeToTheServer() async throws {
        let seed = StoreSplitMix64.seedFromEnvironment()
        let steps = ProcessInfo.processInfo.environment["FOLIO_PARTITION_STEPS"].flatMap { Int($0) } ?? 120
        print("ReplicaPartitionTests seed: \(seed) (FOLIO_SEED=\(seed) replays it), \(steps) steps")
        var rng = StoreSplitMix64(seed: seed)
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let uri = try await cluster.makeDatabase(prefix: "partition")
        let database = PostgresCluster.databaseName(uri)
        let dir = try StoreTemporaryDirectory()
        var peers: [Peer] = []
        let trace = SyncTrace(prefix: ProcessInfo.processInfo.environment["FOLIO_REPLICA_TRACE"] ?? dir.path("trace-"))
        // The last replica leaves its conflicts for the app (`.error`) until a heal settles them.
        for (i, policy) in ["object", "object", "error"].enumerated() {
            peers.append(
                try await Peer(
                    index: i, address: uri + "#replica=" + dir.path("r\(i).sqlite"), policy: policy, trace: trace.prefix, worker: worker))
        }
        var model = PartitionModel()
        var serverUp = true
        var counter = 0, conflictsListed = 0, heals = 0
        var log: [String] = []
        // A replica's problems (its controller's reports, its state at a heal) fail the test as they are found.
        var defects: [String] = []
        func reportDefects() {
            defer { defects = [] }
            for defect in defects { Issue.record(Comment(rawValue: defect + "\n" + trace.lines(naming: defect))) }
        }
        func note(_ line: String) {
            log.append(line)
            if ProcessInfo.processInfo.environment["FOLIO_TRACE"] != nil { print(line) }
        }

        /// A random save on a random replica, recorded in the model when acknowledged.
        func randomSave(on peer: Peer) async {
            let items = model.liveItems, groups = model.liveGroups
            func someGroup() -> String {
                groups.isEmpty || Int.random(in: 0..<4, using: &rng) == 0 ? "-" : groups.randomElement(using: &rng)!
            }
            let shelves = ["A", "B", "C", "D"]
            var op = Int.random(in: 0..<100, using: &rng)
            if groups.count < 3 { op = 0 } else if items.count < 5 && op >= 20 { op = 10 }
            counter += 1
            let command: String
            var effects: [(String, String)] = []  // (key, value) written on the item
            var target = ""
            switch op {
            case 0..<8:
                target = "g\(counter)"
                command = "insert-group \(target)"
            case 8..<35:
                target = "i\(counter)"
                let value = String(Int.random(in: 0..<1_000_000, using: &rng)), shelf = shelves.randomElement(using: &rng)!
                let (k, l, g) = (someGroup(), someGroup(), someGroup())
                command = "insert-item \(target) \(value) \(shelf) \(k) \(l) \(g)"
                effects = [("value", value), ("shelf", shelf), ("keeper", k), ("lister", l), ("guardian", g)]
            case 35..<53:
                target = items.randomElement(using: &rng)!
                let value = String(Int.random(in: 0..<1_000_000, using: &rng))
                command = "set \(target) value \(value)"
                effects = [("value", value)]
            case 53..<63:
                target = items.randomElement(using: &rng)!
                let shelf = shelves.randomElement(using: &rng)!
                command = "set \(target) shelf \(shelf)"
                effects = [("shelf", shelf)]
            case 63..<78:
                target = items.randomElement(using: &rng)!
                let key = ["keeper", "lister", "guardian"].randomElement(using: &rng)!, group = someGroup()
                command = "link \(target) \(key) \(group)"
                effects = [(key, group)]
            case 78..<88:
                target = items.randomElement(using: &rng)!
                let group = groups.randomElement(using: &rng)!, tagging = Bool.random(using: &rng)
                command = "\(tagging ? "tag" : "untag") \(target) \(group)"
                effects = [("tag:" + group, tagging ? "1" : "0")]
            case 88..<96:
                target = items.randomElement(using: &rng)!
                command = "delete-item \(target)"
            default:
                target = groups.randomElement(using: &rng)!
                command = "delete-group \(target)"
            }
            let answer = await peer.ask(command)
            note("r\(peer.index) \(command) -> \(answer)")
            guard answer.hasPrefix("saved deleted=") else { return }
            if command.hasPrefix("insert-group") { model.groups[target] = PartitionModel.Group() }
            if command.hasPrefix("insert-item") { model.items[target] = PartitionModel.Item() }
            for (key, value) in effects { model.write(target, key, value, by: peer.index) }
            // The answer may carry the process's new problem lines after a space: the list ends there.
            let list = answer.dropFirst("saved deleted=".count).prefix { $0 != " " }
            let deleted = list.split(separator: ",").map(String.init).filter { $0 != "-" }
            model.deleted(deleted, group: command.hasPrefix("delete-group") ? target : nil)
        }

        /// Brings everything back, syncs every replica until nothing waits, and checks the result.
        func heal() async throws -> Bool {
            heals += 1
            if !serverUp {
                try await cluster.start()
                serverUp = true
            }
            // The conflicts the `.error` replica lists, then settled by a policy, as an app's user would.
            for peer in peers where peer.policy == "error" {
                let answer = await peer.ask("sync")
                note("r\(peer.index) sync -> \(answer)")
                conflictsListed += answer.split(separator: " ").first { $0.hasPrefix("conflicts=") }.flatMap { Int($0.dropFirst(10)) } ?? 0
                _ = await peer.ask("policy object")
            }
            // Two quiet passes: in the first, a replica's background round may push after another replica's sync
            // (its own sync then pushes nothing); once every outbox is empty nothing is pushed again, and the second
            // pass pulls all of it everywhere.
            var quietPasses = 0
            for _ in 0..<100 where quietPasses < 2 {
                var quietPass = true
                for peer in peers {
                    let answer = await peer.ask("sync")
                    note("r\(peer.index) sync -> \(answer)")
                    if !answer.hasPrefix("synced pushed=0 ") || !answer.contains(" waiting=0 conflicts=0") || answer.contains("problem=") {
                        quietPass = false
                    }
                }
                quietPasses = quietPass ? quietPasses + 1 : 0
                if !quietPass { try await Task.sleep(for: .milliseconds(100)) }
            }
            let quiet = quietPasses == 2
            #expect(quiet, "the replicas never settled; seed \(seed)\n\(log.suffix(40).joined(separator: "\n"))")
            for peer in peers where peer.policy == "error" { _ = await peer.ask("policy error") }
            let server = try PersistentContainer(schema: PartitionTestSchema.make(), store: .postgreSQL(uri))
            let truth = try PartitionTestSchema.dump(server.newBackgroundContext())
            for peer in peers {
                let settled = await peer.ask("settle")  // its "dump" line comes first
                let dump = peer.lines("dump").first.map { $0.isEmpty ? [] : $0.split(separator: "|").map(String.init) } ?? []
                if !settled.hasPrefix("settled ok") { defects.append("replica \(peer.index): \(settled); seed \(seed)") }
                let onlyHere = dump.filter { !truth.contains($0) }, onlyThere = truth.filter { !dump.contains($0) }
                let names = Set((onlyHere + onlyThere).flatMap { $0.split(separator: " ").dropFirst() })
                let history = log.filter { line in
                    names.contains { line.contains(" \($0) ") || line.hasSuffix(" \($0)") } || line.hasPrefix("step")
                }
                if !onlyHere.isEmpty || !onlyThere.isEmpty {
                    Issue.record(
                        """
                        replica \(peer.index) differs from the server; seed \(seed)
                        replica: \(onlyHere)
                        server: \(onlyThere)
                        \(history.suffix(80).joined(separator: "\n"))
                        \(trace.lines(naming: Set(names.map(String.init))))
                        """)
                }
            }
            reportDefects()
            let problems = model.problems(in: truth)
            let recent = log.suffix(60).joined(separator: "\n")
            #expect(
                problems.isEmpty,
                "heal \(heals), seed \(seed):\n\(problems.joined(separator: "\n"))\n\(recent)\n\(trace.lines(naming: problems.joined(separator: " ")))"
            )
            model.rebase(on: truth)
            // A replica's problems are reported above; the run goes on while the server holds what it must.
            return quiet && problems.isEmpty
        }

        for step in 0..<steps {
            let roll = Int.random(in: 0..<100, using: &rng)
            let peer = peers.randomElement(using: &rng)!
            switch roll {
            case 0..<6:
                note("step \(step): server \(serverUp ? "stopped" : "started")")
                if serverUp { try await cluster.stop() } else { try await cluster.start() }
                serverUp.toggle()
            case 6..<10 where serverUp:
                note("step \(step): connections killed")
                _ = try? await cluster.runSQL(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                        + "WHERE datname = '\(database)' AND pid <> pg_backend_pid()")
            case 10..<14:
                // A save wakes its sync; the kill lands while it pushes, or just before or after.
                await randomSave(on: peer)
                try await Task.sleep(for: .milliseconds(Int.random(in: 0...15, using: &rng)))
                note("step \(step): r\(peer.index) killed (\(peer.process.lines.last?.line ?? ""))")
                try await peer.restart(worker: worker)
            case 14..<18:
                let answer = await peer.ask("sync")
                if let n = answer.split(separator: " ").first(where: { $0.hasPrefix("conflicts=") }).flatMap({ Int($0.dropFirst(10)) }) {
                    conflictsListed += n
                }
                note("step \(step): r\(peer.index) sync -> \(answer)")
            case 18..<20:
                note("step \(step): heal")
                guard try await heal() else { return }
            default:
                await randomSave(on: peer)
            }
        }
        let healed = try await heal()
        // Every process's controller, killed ones included, checked each report as it came.
        for peer in peers {
            for process in peer.processes {
                let problems = process.lines.map(\.line).filter { $0.hasPrefix("problem ") }
                if !problems.isEmpty { defects.append("replica \(peer.index): \(problems); seed \(seed)") }
            }
        }
        reportDefects()
        let saves = log.filter { $0.contains("-> saved") }.count
        print("ReplicaPartitionTests: \(saves) saves acknowledged, \(heals) heals, \(conflictsListed) conflicts listed, healed: \(healed)")
        for peer in peers { await peer.process.finish() }
    }
}

/// The partition replicas' traces: every process's file under one prefix,
/// each line stamped, and the lines that concern the objects a failure names.
struct SyncTrace {
    let prefix: String

    /// The trace lines (by time, the last `limit`) that name any object
    /// named in `text` (g12, i34: their row IDs come from the "named" lines).
    func lines(naming text: String, limit: Int = 120) -> String {
        let names = Set(text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init).filter(Self.isObjectName))
        return lines(naming: names, limit: limit)
    }

    func lines(naming names: Set<String>, limit: Int = 120) -> String {
        // A prefix ending in "/" names a folder of its own.
        let folder = prefix.hasSuffix("/") ? URL(fileURLWithPath: prefix) : URL(fileURLWithPath: prefix).deletingLastPathComponent()
        let start = prefix.hasSuffix("/") ? "" : URL(fileURLWithPath: prefix).lastPathComponent
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix(start) }
        var all: [(file: String, line: String)] = []
        for file in files {
            let text = (try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)) ?? ""
            let label = String(file.dropFirst(start.count)).replacingOccurrences(of: ".sqlite", with: "")
            all += text.split(separator: "\n").map { (label, String($0)) }
        }
        // "named i98 PartitionItem/3298534883337": the row IDs the trace spells.
        var ids: Set<String> = []
        for (_, line) in all {
            let words = line.split(separator: " ")
            if words.count == 4, words[1] == "named", names.contains(String(words[2])), let id = words[3].split(separator: "/").last {
                ids.insert(String(id))
            }
        }
        let wanted = names.union(ids)
        guard !wanted.isEmpty else { return "" }
        let picked = all.filter { entry in
            entry.line.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).contains { wanted.contains(String($0)) }
        }
        .sorted { $0.line < $1.line }
        return "trace of \(wanted.sorted()):\n" + picked.suffix(limit).map { "\($0.file) \($0.line.prefix(600))" }.joined(separator: "\n")
    }

    /// Whether a word names a group or an item of the test (g12, i34).
    private static func isObjectName(_ word: String) -> Bool {
        guard let first = word.first, first == "g" || first == "i", word.count > 1 else { return false }
        return word.dropFirst().allSatisfy(\.isNumber)
    }
}
