import FolioPostgres
import FolioResults
import FolioStore
import FolioTestSupport
import Foundation

// The replica partition test's replica process:
//   partition URI#replica=FILE POLICY [TRACE]  opens the replica (PartitionTestSchema; POLICY object or error is
//                                       its sync merge policy), watches every item in a controller sectioned by
//                                       shelf, prints "ready", then obeys one line of stdin at a time, each
//                                       "ID COMMAND ARGS", answering lines that start with "ID ":
//     insert-group G | insert-item NAME VALUE SHELF KEEPER LISTER GUARDIAN (- for none)
//     set NAME value|shelf V | link NAME keeper|lister|guardian G|- | tag NAME G | untag NAME G
//     delete-item NAME | delete-group G      each one save: "saved deleted=NAMES", "missing WHAT" or "refused WHY"
//     policy object|error                    sets the sync merge policy: "policy"
//     sync                                   "synced pushed=P pulled=Q waiting=W conflicts=C" or "sync-failed WHY"
//     settle                                 waits (up to 60 s) until the context and the controller show what the
//                                            file holds; "dump LINES" (| between) then "settled OK-OR-PROBLEMS reports=N"
//   (a report of its controller that breaks a rule prints "problem WHAT" at once; with TRACE, a path prefix, the
//   sync's steps, the commands and what the context heard go to TRACE + FILE's name + "-PID.log", one stamped line each)

/// Runs the partition replica and never returns; returns when `arguments` name another mode.
@MainActor
func runPartitionMode(_ arguments: [String]) {
    guard (4...5).contains(arguments.count) && arguments[1] == "partition" else { return }
    if arguments.count == 5 { traceSync(replica: arguments[2], to: arguments[4]) }
    let replica: PartitionReplica
    do {
        replica = try PartitionReplica(store: store(arguments[2]), policy: arguments[3])
    } catch {
        say("failed \(error)")
        exit(1)
    }
    let lines = AsyncStream<String> { continuation in
        Thread.detachNewThread {
            while let line = readLine() { continuation.yield(line) }
            continuation.finish()
        }
    }
    say("ready")
    Task { @MainActor in
        for await line in lines { await replica.obey(line) }
        exit(0)
    }
    dispatchMain()
}

/// The replica's sync steps, the commands and what the context heard, to a file of this process's own at `prefix`.
private func traceSync(replica: String, to prefix: String) {
    let name = URL(fileURLWithPath: replica.components(separatedBy: "#replica=").last ?? replica).lastPathComponent
    let fd = open(prefix + name + "-\(getpid()).log", O_WRONLY | O_CREAT | O_APPEND, 0o644)
    guard fd >= 0 else { return }
    ReplicaTrace.send { line in
        // One write a line, appended: lines of two threads never interleave.
        let text = String(format: "%.3f ", Date().timeIntervalSince1970) + line + "\n"
        _ = text.withCString { write(fd, $0, strlen($0)) }
    }
}

/// Notes a line in the sync's trace (made only when it is on).
func trace(_ line: @autoclosure () -> String) { ReplicaTrace.note(line()) }

/// One replica of the partition test: a container, its controller, and the commands.
@MainActor
final class PartitionReplica {
    let container: PersistentContainer
    let watch: ResultsWatch<PartitionItem>
    private var heard: ObservationToken?
    var context: ObjectContext { container.viewContext }

    init(store: StoreDescription, policy: String) throws {
        container = try PersistentContainer(schema: PartitionTestSchema.make(), store: store)
        container.syncMergePolicy = policy == "error" ? .error : .mergeByPropertyObjectTrump
        // Local saves win over the sync's writes that reached the context meanwhile, as an app would choose.
        container.viewContext.mergePolicy = .mergeByPropertyObjectTrump
        let request = FetchRequest<PartitionItem>(sortBy: [SortDescriptor(\.shelf), SortDescriptor(\.name)])
        watch = try ResultsWatch(request, in: container.viewContext, sectionKey: \PartitionItem.shelf)
        watch.onProblem = { say("problem " + $0.replacingOccurrences(of: "\n", with: " ")) }
        heard = container.viewContext.observeChanges { changes in
            func ids(_ set: some Sequence<ObjectID>) -> String { set.map { String($0.rowID) }.sorted().joined(separator: ",") }
            trace(
                "context heard \(changes.origin) reload=\(changes.isReload) ins[\(ids(changes.inserted))] "
                    + "upd[\(ids(changes.updated.keys))] del[\(ids(changes.deleted))]")
        }
    }

    func obey(_ line: String) async {
        let words = line.split(separator: " ").map(String.init)
        guard words.count >= 2 else { return say("? \(line)") }
        let id = words[0], command = words[1], rest = Array(words.dropFirst(2))
        trace("command \(line)")
        switch command {
        case "policy":
            container.syncMergePolicy = rest.first == "error" ? .error : .mergeByPropertyObjectTrump
            say("\(id) policy")
        case "sync":
            do {
                let report = try await container.syncNow()
                let problem = report.problem.map { " problem=" + $0.replacingOccurrences(of: "\n", with: " ") } ?? ""
                say(
                    "\(id) synced pushed=\(report.pushed) pulled=\(report.pulled) waiting=\(report.waiting) "
                        + "conflicts=\(report.unsettled.count)\(problem)")
            } catch {
                say("\(id) sync-failed \(String(describing: error).replacingOccurrences(of: "\n", with: " "))")
            }
        case "settle":
            await settle(id)
        default:
            say("\(id) " + save(command, rest))
        }
    }

    /// One save of the command's changes, with the names it deleted (cascades included).
    private func save(_ command: String, _ words: [String]) -> String {
        context.rollback()
        do {
            let before = try names()
            // The new object, whose permanent ID the trace names after the save.
            var made: ManagedObject?
            switch (command, words.count) {
            case ("insert-group", 1):
                let group = PartitionGroup(context: context)
                group.name = words[0]
                made = group
            case ("insert-item", 6):
                let item = PartitionItem(context: context)
                made = item
                item.name = words[0]
                item.value = Int(words[1]) ?? 0
                item.shelf = words[2]
                for (key, name) in zip(["keeper", "lister", "guardian"], words[3...5]) where name != "-" {
                    guard let group = try group(name) else { context.rollback(); return "missing \(name)" }
                    link(item, key, group)
                }
            case ("set", 3):
                guard let item = try item(words[0]) else { return "missing \(words[0])" }
                if words[1] == "value" { item.value = Int(words[2]) ?? 0 } else { item.shelf = words[2] }
            case ("link", 3):
                guard let item = try item(words[0]) else { return "missing \(words[0])" }
                var target: PartitionGroup?
                if words[2] != "-" {
                    guard let found = try group(words[2]) else { return "missing \(words[2])" }
                    target = found
                }
                link(item, words[1], target)
            case ("tag", 2), ("untag", 2):
                guard let item = try item(words[0]) else { return "missing \(words[0])" }
                guard let group = try group(words[1]) else { return "missing \(words[1])" }
                if command == "tag" { item.tags.insert(group) } else { item.tags.remove(group) }
            case ("delete-item", 1):
                guard let item = try item(words[0]) else { return "missing \(words[0])" }
                context.delete(item)
            case ("delete-group", 1):
                guard let group = try group(words[0]) else { return "missing \(words[0])" }
                context.delete(group)
            default:
                return "refused unknown command \(command) \(words)"
            }
            // What this save deleted, cascades included (the sync may delete rows meanwhile, which are not this save's).
            var deleted: Set<ObjectID> = []
            let token = context.observeDidSave { deleted = $0.deleted }
            try withExtendedLifetime(token) { try context.save() }
            let gone = deleted.compactMap { before[$0] }.sorted()
            if let made { trace("named \(words[0]) \(made.objectID)") }
            return "saved deleted=" + (gone.isEmpty ? "-" : gone.joined(separator: ","))
        } catch {
            context.rollback()
            return "refused " + String(describing: error).replacingOccurrences(of: "\n", with: " ")
        }
    }

    private func link(_ item: PartitionItem, _ key: String, _ group: PartitionGroup?) {
        switch key {
        case "keeper": item.keeper = group
        case "lister": item.lister = group
        default: item.guardian = group
        }
    }

    private func item(_ name: String) throws -> PartitionItem? {
        try context.fetch(FetchRequest<PartitionItem>(predicate: #Predicate { $0.name == name })).first
    }

    private func group(_ name: String) throws -> PartitionGroup? {
        try context.fetch(FetchRequest<PartitionGroup>(predicate: #Predicate { $0.name == name })).first
    }

    /// Every item's and group's name in the store, by ID.
    private func names() throws -> [ObjectID: String] {
        var names: [ObjectID: String] = [:]
        for item in try context.fetch(FetchRequest<PartitionItem>()) { names[item.objectID] = item.name }
        for group in try context.fetch(FetchRequest<PartitionGroup>()) { names[group.objectID] = group.name }
        return names
    }

    /// Waits until the context's objects and the controller show what a fresh context reads from the file.
    private func settle(_ id: String) async {
        let deadline = Date().addingTimeInterval(60)
        var fresh: [String] = [], mine: [String] = []
        var agrees = false
        repeat {
            do {
                fresh = try PartitionTestSchema.dump(container.newBackgroundContext())
                mine = try PartitionTestSchema.dump(context)
                agrees = try fresh == mine && watch.agreesWithFetch()
            } catch {
                say("\(id) settled failed \(error)")
                return
            }
            if agrees { break }
            try? await Task.sleep(for: .milliseconds(20))
        } while Date() < deadline
        var problems = watch.problems
        if !agrees { problems.append("the context or controller never matched the file: context \(mine), file \(fresh)") }
        say("\(id) dump " + fresh.joined(separator: "|"))
        say("\(id) settled \(problems.isEmpty ? "ok" : problems.joined(separator: "; ")) reports=\(watch.reports)")
    }
}
