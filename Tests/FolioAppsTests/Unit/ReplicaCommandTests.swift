import BuildGuideApp
import FolioTestSupport
import Foundation
import MyLocationsApp
import PlanetsApp
import Testing
import ZootasticApp

@testable import FolioAppSupport

/// `--replica PATH` and `$FOLIO_REPLICA` beside a `postgresql://` store, in
/// every app and subcommand: misuse is a usage error naming the problem, and
/// a change made offline is saved and said to wait, never said to be synced.
@MainActor
@Suite(.serialized) struct ReplicaCommandTests {
    static let apps: [any FolioApp.Type] = [PlanetsApp.self, ZootasticApp.self, MyLocationsApp.self, BuildGuideApp.self]
    /// One change per app, each a subcommand that saves.
    static let writes: [[String]] = [
        ["planets", "add", "Vulcan"],
        ["zoo", "add", "--name", "Okapi", "--habitat", "Forest", "--order", "Artiodactyla"],
        ["locations", "add", "--description", "Cafe", "--category", "Bar", "--latitude", "1", "--longitude", "2"],
        ["guides", "add", "Rush"],
    ]

    /// The name each second change uses instead (guides' names are unique).
    static let secondNames = ["Vulcan": "Romulus", "Okapi": "Tapir", "Cafe": "Diner", "Rush": "Expand"]

    func command(_ console: Console, _ environment: [String: String]) -> FolioCommand {
        FolioCommand(apps: Self.apps, console: console, environment: environment)
    }

    /// Runs `tokens` to the end, a subcommand on a replica included.
    func run(_ tokens: [String], environment: [String: String] = [:]) async -> (outcome: FolioCommand.Outcome, out: String, err: String) {
        let console = Console.capturing()
        let command = command(console, environment)
        var outcome = command.run(tokens)
        if case .onReplica(let work) = outcome { outcome = await command.run(work) }
        return (outcome, console.output, console.errorOutput)
    }

    @Test func aReplicaBesideAFileStoreIsAUsageErrorInEveryAppAndSubcommand() async throws {
        let folder = try AppTemporaryDirectory()
        let file = folder.path("store.sqlite"), replica = folder.path("replica.sqlite")
        for app in Self.apps {
            for tail in [[], ["list"], ["sync"]] + Self.writes.filter({ $0[0] == app.command }).map({ Array($0.dropFirst()) }) {
                let explicit = await run([app.command] + tail + ["--store", file, "--replica", replica])
                #expect(explicit.outcome == .exit(.usage), "\(app.command) \(tail)")
                #expect(explicit.err.contains("--replica keeps a local copy of a PostgreSQL store"), "\(explicit.err)")
                let fromEnvironment = await run([app.command] + tail + ["--store", file], environment: ["FOLIO_REPLICA": replica])
                #expect(fromEnvironment.outcome == .exit(.usage), "\(app.command) \(tail)")
                #expect(fromEnvironment.err.contains("FOLIO_REPLICA keeps a local copy"), "\(fromEnvironment.err)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(!FileManager.default.fileExists(atPath: replica))
    }

    @Test func aBadReplicaPathIsAUsageErrorNamingIt() async throws {
        let folder = try AppTemporaryDirectory()
        let server = "postgresql:///nowhere?host=\(folder.path("socket"))"
        let cases: [(String, String)] = [
            ("", "--replica needs a path"),
            (folder.url.path, "is a folder"),
            (folder.path("sub") + "/", "is a folder"),
            ("postgresql:///other", "is a URI"),
        ]
        for (path, words) in cases {
            for tail in [["zoo"], ["zoo", "list"], ["zoo", "sync"]] {
                let result = await run(tail + ["--store", server, "--replica", path])
                #expect(result.outcome == .exit(.usage), "\(path) \(tail)")
                #expect(result.err.contains(words), "\(result.err)")
            }
        }
        let sync = await run(["planets", "sync", "--store", server])
        #expect(sync.outcome == .exit(.usage))
        #expect(sync.err.contains("sync needs --replica PATH"), "\(sync.err)")
    }

    @Test func everyAppsHelpListsTheReplicaAndSync() {
        for app in Self.apps {
            let help = HelpText.app(app)
            #expect(help.contains("--replica PATH"), "\(app.command)")
            #expect(help.contains("sync --replica PATH"), "\(app.command)")
            #expect(help.contains("FOLIO_REPLICA"), "\(app.command)")
        }
        #expect(HelpText.launcher(apps: Self.apps).contains("--replica PATH"))
    }

    /// Offline, every app's change is saved on the replica and said to
    /// wait (the count in words, plural right); `sync` exits 3 and says
    /// nothing was synced; once the server is back `sync` pushes them all
    /// and the server has them.
    @Test func anOfflineChangeIsSavedAndSaidToWaitUntilSyncPushesIt() async throws {
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let folder = try AppTemporaryDirectory()
        for write in Self.writes {
            let app = write[0]
            let store = try await cluster.makeDatabase()
            let replica = folder.path("\(app)-replica.sqlite")
            let online = await run([app, "list", "--store", store, "--replica", replica])
            #expect(online.outcome == .exit(.success), "\(online.err)")
            try await cluster.stop()
            let first = await run(write + ["--store", store, "--replica", replica])
            #expect(first.outcome == .exit(.success), "\(first.err)")
            // `locations add` prints the new id first.
            #expect(
                first.out.hasSuffix("\nsaved; 1 change waits for the server (offline)\n")
                    || first.out == "saved; 1 change waits for the server (offline)\n", "\(first)")
            let second = await run(write.map { Self.secondNames[$0] ?? $0 } + ["--store", store, "--replica", replica])
            #expect(second.out.contains("saved; 2 changes wait for the server (offline)\n"), "\(second)")
            let offline = await run([app, "sync", "--store", store, "--replica", replica])
            #expect(offline.outcome == .exit(.offline), "\(offline)")
            #expect(offline.out.isEmpty, "\(offline)")
            #expect(offline.err.contains("not synced: the server cannot be reached"), "\(offline.err)")
            #expect(offline.err.contains("2 changes wait"), "\(offline.err)")
            try await cluster.start()
            let synced = await run([app, "sync", "--store", store, "--replica", replica])
            #expect(synced.outcome == .exit(.success), "\(synced)")
            #expect(synced.out.hasPrefix("pushed 2 changes, pulled 0 changes\n"), "\(synced.out)")
            #expect(synced.out.hasSuffix("synced: nothing waits\n"), "\(synced.out)")
            let server = await run([app, "list", "--json", "--store", store])
            let replicaList = await run([app, "list", "--json", "--store", store, "--replica", replica])
            #expect(server.out == replicaList.out, "\(app)")
            #expect(Self.secondNames.values.contains { server.out.contains($0) }, "\(server.out)")
        }
    }

    /// Online, a change is pushed before the command exits: it says nothing
    /// about waiting, and another replica's `sync` pulls it.
    @Test func anOnlineChangeReachesTheServerBeforeTheCommandExits() async throws {
        let cluster = try await PostgresCluster.shared()
        let folder = try AppTemporaryDirectory()
        let store = try await cluster.makeDatabase()
        let added = await run(Self.writes[1] + ["--store", store, "--replica", folder.path("a.sqlite")])
        #expect(added.outcome == .exit(.success), "\(added)")
        #expect(added.out.isEmpty, "\(added.out)")
        let server = await run(["zoo", "list", "--store", store])
        #expect(server.out.contains("Okapi"), "\(server.out)")
        let other = await run(["zoo", "sync", "--store", store, "--replica", folder.path("b.sqlite")])
        #expect(other.outcome == .exit(.success), "\(other)")
        let list = await run(["zoo", "list", "--store", store, "--replica", folder.path("b.sqlite")])
        #expect(list.out.contains("Okapi"), "\(list.out)")
    }

    /// Beside a program that syncs the same replica (an app open on it), a
    /// command syncs nothing itself, and says so rather than "pushed 0".
    @Test func besideAnOpenAppACommandSaysTheAppSyncs() async throws {
        let cluster = try await PostgresCluster.shared()
        let folder = try AppTemporaryDirectory()
        let store = try await cluster.makeDatabase()
        let replica = folder.path("planets.sqlite")
        let open = try PlanetsStore.open(at: URL(string: store)!, replica: URL(fileURLWithPath: replica))
        #expect(await waitUntil(30) { open.syncStatus?.lastSynced != nil })
        let added = await run(["planets", "add", "Vulcan", "--store", store, "--replica", replica])
        #expect(added.outcome == .exit(.success), "\(added)")
        // The open container may push it before the command looks.
        #expect(
            added.out.isEmpty || added.out == "saved; 1 change waits for the server (another program open on this replica syncs it)\n",
            "\(added.out)")
        let synced = await run(["planets", "sync", "--store", store, "--replica", replica])
        #expect(synced.out.hasPrefix("not synced here: another program open on this replica syncs it; "), "\(synced.out)")
        #expect(!synced.out.contains("pushed"), "\(synced.out)")
        // The open program's waiting count was 0 before the command too: only the server's list says it pushed.
        var server = await run(["planets", "list", "--store", store])
        #expect(
            await waitUntil(30) {
                server = await run(["planets", "list", "--store", store])
                return server.out.contains("Vulcan")
            }, "\(server.out)")
        #expect(await waitUntil(30) { open.syncStatus?.waitingChanges == 0 })
    }
}
