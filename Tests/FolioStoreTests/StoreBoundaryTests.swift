import FolioTestSupport
import Foundation
import Testing

@testable import FolioStore

/// Only a missing path, an empty regular file or this schema's store is
/// ever written. Whatever else is at the path — a FIFO, a socket, a device,
/// a folder, a link to nothing, an SQLite file that another program set up
/// without tables — is refused, every way of opening it, and stays exactly
/// as it was, with nothing created beside it.
@MainActor
@Suite struct StoreBoundaryTests {
    /// What a folder holds, without reading anything that could block (a FIFO) or is not ours (a device).
    func listing(_ dir: StoreTemporaryDirectory) -> [String: String] {
        var entries: [String: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir.url.path)) ?? [] {
            let path = dir.path(name)
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            let kind = info.st_mode & S_IFMT
            if kind == S_IFREG {
                entries[name] = "file " + (FileManager.default.contents(atPath: path) ?? Data()).base64EncodedString()
            } else if kind == S_IFLNK {
                entries[name] = "link " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?")
            } else {
                entries[name] = "node \(kind) \(info.st_ino) \(info.st_rdev)"
            }
        }
        return entries
    }

    /// Every way of opening `path` is refused as not a store, and the folder does not change.
    func expectRefused(_ dir: StoreTemporaryDirectory, _ path: String, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation)
    {
        let before = listing(dir)
        for (readOnly, seeded) in [(false, false), (false, true), (true, false), (true, true)] {
            do {
                _ = try PersistentContainer(
                    schema: StoreTestSchema.make(), path: path, readOnly: readOnly, pollInterval: 3600,
                    seed: seeded ? { TestAnimal(context: $0).commonName = "Seed" } : nil)
                Issue.record("opened \(path) (readOnly \(readOnly), seeded \(seeded))", sourceLocation: sourceLocation)
            } catch let error as StoreError {
                guard case .notAFolioStore(_, let why) = error else {
                    Issue.record("expected notAFolioStore, got \(error)", sourceLocation: sourceLocation)
                    continue
                }
                #expect(why.contains(reason), "\(why)", sourceLocation: sourceLocation)
                #expect(error.description.contains("left untouched"), sourceLocation: sourceLocation)
            } catch {
                Issue.record("\(error)", sourceLocation: sourceLocation)
            }
        }
        #expect(listing(dir) == before, sourceLocation: sourceLocation)
    }

    @Test func aFIFOIsRefusedAndStaysAFIFO() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("pipe")
        #expect(mkfifo(path, 0o644) == 0)
        expectRefused(dir, path, "FIFO")
    }

    @Test func aSocketIsRefused() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("socket")
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8.prefix(raw.count - 1)) + [0])
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        expectRefused(dir, path, "socket")
    }

    @Test func aDeviceIsRefusedThroughALinkOrItsOwnNode() throws {
        let dir = try StoreTemporaryDirectory()
        let link = dir.path("null-link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
        expectRefused(dir, link, "device")
        var null = stat()
        #expect(stat("/dev/null", &null) == 0 && null.st_mode & S_IFMT == S_IFCHR)
        // A node of its own where the system lets us make one (as root).
        let node = dir.path("devnull")
        if mknod(node, S_IFCHR | 0o666, null.st_rdev) == 0 { expectRefused(dir, node, "device") }
    }

    @Test func aFolderAndALinkToNothingAreRefused() throws {
        let dir = try StoreTemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.path("folder"), withIntermediateDirectories: false)
        expectRefused(dir, dir.path("folder"), "folder")
        try FileManager.default.createSymbolicLink(atPath: dir.path("dangling"), withDestinationPath: dir.path("nowhere.sqlite"))
        expectRefused(dir, dir.path("dangling"), "link")
    }

    @Test func anSQLiteFileWithoutTablesThatAnotherProgramSetUpIsRefused() throws {
        let dir = try StoreTemporaryDirectory()
        runSQL(dir.path("view.db"), "CREATE VIEW answer AS SELECT 42")
        expectRefused(dir, dir.path("view.db"), "views")
        runSQL(dir.path("versioned.db"), "PRAGMA user_version = 7")
        expectRefused(dir, dir.path("versioned.db"), "user version")
    }

    @Test func folioMetadataBesideAnotherProgramsTablesIsNotAStore() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("accounts.db")
        runSQL(
            path,
            """
            CREATE TABLE folio_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE accounts (id INTEGER PRIMARY KEY, owner TEXT); INSERT INTO accounts (owner) VALUES ('Ann')
            """)
        expectRefused(dir, path, "accounts")
    }

    /// A link to a store is the store: it opens, saves through the link, and stays a link.
    @Test func aLinkToAStoreOpensTheStore() throws {
        let dir = try StoreTemporaryDirectory()
        let real = dir.path("real.sqlite"), link = dir.path("link.sqlite")
        do {
            let container = try PersistentContainer(schema: StoreTestSchema.make(), path: real, pollInterval: 3600) {
                TestAnimal(context: $0).commonName = "Seed"
            }
            #expect(try container.viewContext.count(for: FetchRequest<TestAnimal>()) == 1)
        }
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        do {
            let container = try PersistentContainer(schema: StoreTestSchema.make(), path: link, pollInterval: 3600)
            TestAnimal(context: container.viewContext).commonName = "Okapi"
            try container.viewContext.save()
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real)
        let reader = try PersistentContainer(schema: StoreTestSchema.make(), path: real, readOnly: true, pollInterval: 3600)
        #expect(try reader.viewContext.count(for: FetchRequest<TestAnimal>()) == 2)
    }

    /// A store refused after its header was read — a newer schema, a cut-off
    /// file — is refused before any connection could make a file beside it.
    @Test func aRefusedStoreGetsNoFileBesideIt() throws {
        let dir = try StoreTemporaryDirectory()
        let newer = dir.path("newer.sqlite"), cut = dir.path("cut.sqlite")
        for path in [newer, cut] {
            let container = try PersistentContainer(schema: StoreTestSchema.make(version: 2), path: path, pollInterval: 3600)
            for i in 0..<300 { TestAnimal(context: container.viewContext).commonName = "Animal \(i) " + String(repeating: "x", count: 200) }
            try container.viewContext.save()
        }
        // As a clean close leaves them: the stores alone.
        for path in [newer, cut] { for log in ["-wal", "-shm"] { unlink(path + log) } }
        let size = try #require(StoreFile.size(of: cut))
        #expect(truncate(cut, off_t(size / 2)) == 0)
        let before = dir.snapshot()
        for readOnly in [false, true] {
            #expect(throws: StoreError.newerSchema(stored: 2, current: 1)) {
                _ = try PersistentContainer(schema: StoreTestSchema.make(version: 1), path: newer, readOnly: readOnly, pollInterval: 3600)
            }
        }
        do {
            _ = try PersistentContainer(schema: StoreTestSchema.make(version: 2), path: cut, pollInterval: 3600)
            Issue.record("a cut-off store opened")
        } catch let error as StoreError {
            guard case .corrupt = error else { Issue.record("\(error)"); return }
        }
        #expect(dir.snapshot() == before)
    }
}
