import FolioStore
import FolioTestSupport
import Foundation

// Modes for the store-file tests (creation, seeding, full disks), which
// open their containers themselves:
//   create PATH N [--wait]   opens PATH, seeding a new store with items 1...N; prints "opened COUNT"
//                            (--wait: prints "ready" first and waits for stdin to close)
//   disk-full DIR            on a small file system mounted at DIR: fills it, then opens, saves to
//                            and creates stores there; prints "open: …", "save: …", "create: …"

/// Runs a file mode and exits; returns when `arguments` name none.
@MainActor
func runFileMode(_ arguments: [String]) {
    switch arguments.dropFirst().first {
    case "create" where arguments.count >= 4:
        if arguments.contains("--wait") {
            say("ready")
            _ = FileHandle.standardInput.readDataToEndOfFile()
        }
        let count = Int(arguments[3]) ?? 1
        do {
            let container = try PersistentContainer(schema: StoreTestSchema.make(), path: arguments[2]) { context in
                for n in 1...count { TestItem(context: context).count = n }
            }
            say("opened \(try container.viewContext.count(for: FetchRequest<TestItem>()))")
            exit(0)
        } catch {
            say("failed \(error)")
            exit(1)
        }
    case "disk-full" where arguments.count == 3:
        fillThenUse(folder: arguments[2])
        exit(0)
    default:
        return
    }
}

/// Saves once on an empty file system, fills it, then reports what opening,
/// saving and creating a store say.
@MainActor
private func fillThenUse(folder: String) {
    let path = folder + "/full.sqlite"
    do {
        // No poller: a poll in flight would keep the container, and its -shm, open past this scope.
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
        TestAnimal(context: container.viewContext).commonName = "Ocelot"
        try container.viewContext.save()
    } catch {
        say("setup: \(error)")
        return
    }
    guard !FileManager.default.fileExists(atPath: path + "-shm") else {
        say("setup: the -shm index outlived its container")
        return
    }
    // Closed, so the next open must make its -shm index again: on a full disk.
    let filler = open(folder + "/filler", O_WRONLY | O_CREAT, 0o644)
    let chunk = [UInt8](repeating: 0x5A, count: 4096)
    while write(filler, chunk, chunk.count) > 0 {}
    close(filler)
    do {
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
        say("open: ok")
        for i in 0..<2000 { TestAnimal(context: container.viewContext).commonName = "Animal \(i) " + String(repeating: "z", count: 200) }
        try container.viewContext.save()
        say("save: ok")
    } catch {
        say("open or save: \(error)")
    }
    do {
        _ = try PersistentContainer(schema: StoreTestSchema.make(), path: folder + "/new.sqlite") { context in
            for i in 0..<2000 { TestAnimal(context: context).commonName = "Animal \(i) " + String(repeating: "z", count: 200) }
        }
        say("create: ok")
    } catch {
        say("create: \(error)")
    }
}
