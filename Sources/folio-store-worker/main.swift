import FolioPostgres
import FolioResults
import FolioStore
import FolioTestSupport
// folio-store-worker: a child process for FolioStore's crash and two-process tests.
// PATH is an SQLite file, a postgresql:// URI, or URI#replica=FILE (a replica of that server in FILE).
//   folio-store-worker save-loop PATH   saves forever; prints "saved N" after each acknowledged save
//   folio-store-worker insert PATH NAME... inserts animals one save each, prints "saved ID", then waits for stdin to close
//   folio-store-worker insert-paced PATH SEED COUNT  inserts COUNT animals, pausing 0-3 ms (seeded) between saves, as insert
//   folio-store-worker watch PATH [LIMIT]  prints "heard INSERTED-IDS" for each change set from other processes, "reload" for a reload;
//                                        LIMIT is the reader silence limit in seconds (its heartbeat follows it)
//   folio-store-worker watch-many PATH N  as watch, for N containers of its own besides the first: "heard K INSERTED-IDS"
//                                        (in row order) and "reload K" for container K; "ready" once all are open
//   folio-store-worker insert-and-close PATH NAME  inserts one animal, closes the store, prints "closed"
//   folio-store-worker keypaths          prints how key paths written here and in FolioTestSupport resolve
//   folio-store-worker add-in-order PATH ORDER N   after stdin closes, adds N animals in the classification of ORDER
//                                                (made when there is none), each in a write transaction; prints "done"
//   folio-store-worker append PATH N     after stdin closes, adds N items numbered one past the largest; prints "done"
//   folio-store-worker batch PATH        after stdin closes, runs three batch requests (insert 200 animals "W000"..., habitat
//                                        "Cave" where legs == 2, delete where legs == 3), printing "ran KIND COUNT" after each
//   folio-store-worker converge PATH SEED COUNT TOTAL  inserts COUNT animals paced as insert-paced while a controller
//                                                follows every animal by name; prints "saved all", and once stdin
//                                                closes and it shows TOTAL (or after 120 s), "converged NAMES"
//                                                (its rows) and "fetched NAMES" (a fresh fetch's)
//   (and the modes of FileModes.swift: create, disk-full; of ConflictMode.swift: conflict-peer;
//   of PartitionMode.swift: partition)
import Foundation

/// Writes a line straight to stdout (unbuffered), so the parent sees it before a kill.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

/// The store PATH names: an SQLite file, a PostgreSQL server's URI, or
/// `URI#replica=FILE` for a replica of that server in FILE.
func store(_ path: String) -> StoreDescription {
    if let mark = path.range(of: "#replica=") {
        return .postgreSQL(String(path[..<mark.lowerBound]), replica: String(path[mark.upperBound...]))
    }
    return StoreDescription.isPostgreSQLURI(path) ? .postgreSQL(path) : .file(path)
}

// Computed, not stored: never a fetch's key.
extension TestAnimal {
    var loudName: String { commonName.uppercased() }
}

extension TestClassification {
    var loudOrder: String { order.uppercased() }
}

let args = CommandLine.arguments
runFileMode(args)
runConflictMode(args)
runPartitionMode(args)
if args.count == 2 && args[1] == "keypaths" {
    let written: [(label: String, entity: String, keyPath: AnyKeyPath)] = [
        ("declared", "TestAnimal", \TestAnimal.commonName),
        ("optional", "TestAnimal", \TestAnimal.classification?.order),
        ("forced", "TestAnimal", \TestAnimal.classification!.order),
        ("required", "TestCrew", \TestCrew.ship.name),
        ("computed", "TestAnimal", \TestAnimal.loudName),
        ("computed-chain", "TestAnimal", \TestAnimal.classification?.loudOrder),
    ]
    for line in StoreTestKeyPaths.report(written + StoreTestKeyPaths.cases, in: StoreTestSchema.make()) { say(line) }
    exit(0)
}
if args.count == 4 && args[1] == "insert-and-close" {
    // Closes its connections before exiting (the other modes just exit), as a finished command does.
    do {
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: args[2])
        let a = TestAnimal(context: container.viewContext)
        a.commonName = args[3]
        try container.viewContext.save()
        say("saved \(a.objectID)")
    } catch {
        FileHandle.standardError.write(Data("folio-store-worker: \(error)\n".utf8))
        exit(1)
    }
    say("closed")
    exit(0)
}
guard args.count >= 3 else {
    FileHandle.standardError.write(
        Data("usage: folio-store-worker save-loop|insert|insert-paced|watch|add-in-order|append PATH [ARGUMENTS...] | keypaths\n".utf8))
    exit(2)
}
let container: PersistentContainer
do {
    container = try PersistentContainer(schema: StoreTestSchema.make(), store: store(args[2]))
} catch {
    FileHandle.standardError.write(Data("folio-store-worker: \(error)\n".utf8))
    exit(1)
}
let context = container.viewContext

/// A write transaction in a race of several processes: one that gave up as
/// busy (on a loaded machine the others can hold the lock in turns past the
/// busy timeout) says so and is tried again. The races check what was
/// written, not how long the lock took.
@MainActor func writeInTurn(_ changes: () throws -> Void) throws {
    while true {
        do {
            return try context.performWrite(changes)
        } catch StoreError.busy {
            context.rollback()
            say("busy, trying again")
        }
    }
}

switch args[1] {
case "save-loop":
    // Each save inserts an item numbered N and updates the previous one, so a
    // torn save would show as a missing or half-written pair.
    var n = try context.count(for: FetchRequest<TestItem>())
    var previous: TestItem?
    while true {
        n += 1
        let item = TestItem(context: context)
        item.count = n
        item.text = String(repeating: "x", count: n % 500)
        previous?.flag = true
        try context.save()
        say("saved \(n)")
        previous = item
        if n % 50 == 0 { context.refreshAllObjects() }
    }
case "insert":
    for name in args.dropFirst(3) {
        let a = TestAnimal(context: context)
        a.commonName = name
        try context.save()
        say("saved \(a.objectID)")
    }
    _ = FileHandle.standardInput.readDataToEndOfFile()
case "insert-paced":
    guard args.count == 5, let seed = UInt64(args[3]), let count = Int(args[4]) else {
        FileHandle.standardError.write(Data("usage: folio-store-worker insert-paced PATH SEED COUNT\n".utf8))
        exit(2)
    }
    var rng = StoreSplitMix64(seed: seed)
    for i in 0..<count {
        let a = TestAnimal(context: context)
        a.commonName = "Paced \(i)"
        try context.save()
        say("saved \(a.objectID)")
        usleep(UInt32.random(in: 0...3000, using: &rng))
    }
    _ = FileHandle.standardInput.readDataToEndOfFile()
case "watch":
    if args.count > 3, let limit = Double(args[3]) { container.setReaderSilenceLimit(limit) }
    let token = context.observeChanges { changes in
        guard changes.origin == .otherProcess else { return }
        say(changes.isReload ? "reload" : "heard " + changes.inserted.sorted().map(\.description).joined(separator: ","))
    }
    say("ready")
    DispatchQueue.global().async {
        _ = FileHandle.standardInput.readDataToEndOfFile()
        exit(0)
    }
    withExtendedLifetime(token) { dispatchMain() }
case "watch-many" where args.count == 4:
    let watchers = try (0..<(Int(args[3]) ?? 1)).map { _ in try PersistentContainer(schema: StoreTestSchema.make(), store: store(args[2])) }
    let tokens = watchers.enumerated().map { k, watcher in
        watcher.viewContext.observeChanges { changes in
            guard changes.origin == .otherProcess else { return }
            say(changes.isReload ? "reload \(k)" : "heard \(k) " + changes.inserted.sorted().map(\.description).joined(separator: ","))
        }
    }
    say("ready")
    DispatchQueue.global().async {
        _ = FileHandle.standardInput.readDataToEndOfFile()
        exit(0)
    }
    withExtendedLifetime((watchers, tokens)) { dispatchMain() }
case "add-in-order" where args.count == 5:
    // Started together with others, then released at once by closing stdin.
    say("ready")
    _ = FileHandle.standardInput.readDataToEndOfFile()
    let order = args[3]
    for i in 0..<(Int(args[4]) ?? 1) {
        try writeInTurn {
            let existing = try context.fetch(FetchRequest<TestClassification>(predicate: #Predicate { $0.order == order })).first
            let classification = existing ?? TestClassification(context: context)
            if existing == nil {
                classification.order = order
                classification.family = "\(getpid())"
            }
            let animal = TestAnimal(context: context)
            animal.commonName = "\(getpid())-\(i)"
            animal.classification = classification
        }
    }
    say("done")
case "append" where args.count == 4:
    say("ready")
    _ = FileHandle.standardInput.readDataToEndOfFile()
    var last = FetchRequest<TestItem>(sortBy: [SortDescriptor(\TestItem.count, order: .reverse)])
    last.fetchLimit = 1
    for _ in 0..<(Int(args[3]) ?? 1) {
        try writeInTurn {
            TestItem(context: context).count = (try context.fetch(last).first?.count ?? 0) + 1
        }
    }
    say("done")
case "batch":
    _ = FileHandle.standardInput.readDataToEndOfFile()
    let rows: [[String: Any]] = (0..<200).map { ["commonName": String(format: "W%03d", $0), "legs": $0 % 5] }
    say("ran insert \(try context.execute(BatchInsertRequest<TestAnimal>(objects: rows)).count)")
    var update = BatchUpdateRequest<TestAnimal>(predicate: #Predicate { $0.legs == 2 }).setting(\.habitat, to: "Cave")
    update.resultType = .count
    say("ran update \(try context.execute(update).count)")
    var delete = BatchDeleteRequest<TestAnimal>(predicate: #Predicate { $0.legs == 3 })
    delete.resultType = .count
    say("ran delete \(try context.execute(delete).count)")
case "converge" where args.count == 6:
    guard let seed = UInt64(args[3]), let count = Int(args[4]), let total = Int(args[5]) else { exit(2) }
    let controller = FetchedResultsController(
        fetchRequest: FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)]),
        managedObjectContext: context, sectionNameKeyPath: nil)
    try controller.performFetch()
    var rng = StoreSplitMix64(seed: seed)
    for i in 0..<count {
        TestAnimal(context: context).commonName = "\(getpid())-\(i)"
        try context.save()
        say("saved")
        RunLoop.main.run(until: Date().addingTimeInterval(Double.random(in: 0...0.003, using: &rng)))
    }
    // Every process has saved when stdin closes; others' saves then reach the
    // controller on the main queue, which the run loop drains.
    say("saved all")
    _ = FileHandle.standardInput.readDataToEndOfFile()
    let deadline = Date().addingTimeInterval(120)
    while (controller.fetchedObjects?.count ?? 0) < total && Date() < deadline { RunLoop.main.run(until: Date().addingTimeInterval(0.01)) }
    say("converged " + (controller.fetchedObjects ?? []).map(\.commonName).joined(separator: ","))
    say("fetched " + (try context.fetch(controller.fetchRequest)).map(\.commonName).joined(separator: ","))
default:
    FileHandle.standardError.write(Data("folio-store-worker: unknown mode \(args[1])\n".utf8))
    exit(2)
}
