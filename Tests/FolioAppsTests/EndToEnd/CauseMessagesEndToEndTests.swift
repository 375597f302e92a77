import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// The release binary's refusals name their cause, on one line of a
    /// sensible length: a link to a store is the store; a read-only mount,
    /// a role without USAGE on the store's schema, a damaged page and a
    /// 100 KB name each get a message that says what is wrong.
    @Suite struct CauseMessagesEndToEndTests {
        func run(_ arguments: [String]) throws -> AppProcess.Result {
            try AppProcess.run(try AppProcess.folioBinary(), arguments)
        }

        /// The error is one line: no line break but the last.
        func expectOneLine(_ result: AppProcess.Result, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(
                result.stderr.hasSuffix("\n") && result.stderr.dropLast().allSatisfy { !$0.isNewline },
                "\(result.stderr.debugDescription)", sourceLocation: sourceLocation)
        }

        @Test func aLinkToAStoreOpensTheStore() throws {
            let folder = try AppTemporaryDirectory()
            let store = folder.path("planets.sqlite")
            #expect(try run(["planets", "list", "--store", store]).status == 0)
            let absolute = folder.path("absolute.sqlite"), relative = folder.path("relative.sqlite")
            try FileManager.default.createSymbolicLink(atPath: absolute, withDestinationPath: store)
            try FileManager.default.createSymbolicLink(atPath: relative, withDestinationPath: "planets.sqlite")
            for link in [absolute, relative] {
                let listed = try run(["planets", "list", "--store", link])
                #expect(listed.status == 0 && listed.stdout.contains("Mercury"), "\(listed)")
                let added = try run(["planets", "add", "Through \((link as NSString).lastPathComponent)", "--store", link])
                #expect(added.status == 0, "\(added)")
                #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link).hasSuffix("planets.sqlite"))
            }
            let listed = try run(["planets", "list", "--store", store]).stdout
            #expect(listed.contains("Through absolute.sqlite") && listed.contains("Through relative.sqlite"), "\(listed)")
        }

        /// In a mount namespace of its own (as root, or as a user mapped to root).
        @Test func aReadOnlyMountIsNamed() throws {
            let folder = try AppTemporaryDirectory()
            let mount = folder.path("mnt")
            try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
            let folio = try AppProcess.folioBinary().path
            let script = """
                mount -t tmpfs -o size=8m tmpfs "$1" || exit 99
                "$0" planets list --store "$1/kept.sqlite" > /dev/null || exit 98
                mount -o remount,ro "$1" || exit 97
                for store in kept new; do "$0" planets add Vulcan --store "$1/$store.sqlite"; done
                "$0" planets add Vulcan --store "$1/folder/new.sqlite"
                "$0" planets list --store "$1/kept.sqlite" | head -1
                """
            let result = try AppProcess.run(
                URL(fileURLWithPath: "/usr/bin/unshare"),
                (getuid() == 0 ? [] : ["--user", "--map-root-user"]) + ["--mount", "/bin/sh", "-c", script, folio, mount])
            let lines = result.stderr.split(separator: "\n").map(String.init)
            #expect(lines.count == 3, "\(result)")
            #expect(
                lines.first?.hasSuffix(
                    "kept.sqlite: it is on a file system mounted read-only, so nothing can be saved to it (reading it works)") == true,
                "\(result)")
            #expect(
                lines.dropFirst().first?.hasSuffix("its folder is on a file system mounted read-only, so a new store cannot be made there")
                    == true, "\(result)")
            #expect(
                lines.last?.hasSuffix("cannot create the folder \(mount)/folder: the file system is mounted read-only") == true, "\(result)"
            )
            #expect(result.stdout.contains("Mercury"), "reading still works: \(result)")
        }

        @Test func aRoleWithoutUsageOnTheSchemaIsNamed() throws {
            let cluster = try PostgresCluster.shared()
            let store = try cluster.makeDatabase(prefix: "usage")
            #expect(try run(["planets", "list", "--store", store]).status == 0)
            let database = PostgresCluster.databaseName(store)
            let role = "\(database)_reader"
            try cluster.runSQL("CREATE ROLE \(role) LOGIN; GRANT CONNECT, CREATE ON DATABASE \(database) TO \(role)", database: database)
            let uri = store.replacingOccurrences(of: "user=postgres", with: "user=\(role)")
            for arguments in [["list"], ["add", "Vulcan"]] {
                let result = try run(["planets"] + arguments + ["--store", uri])
                #expect(result.status == 1, "\(result)")
                #expect(result.stderr.contains("the role \"\(role)\" has no USAGE privilege on the schema \"Planets\""), "\(result)")
                #expect(!result.stderr.contains("no schema has been selected"), "\(result)")
                expectOneLine(result)
            }
        }

        @Test func aDamagedPageIsReportedOnOneLine() throws {
            let folder = try AppTemporaryDirectory()
            let store = folder.path("planets.sqlite")
            #expect(try run(["planets", "list", "--store", store]).status == 0)
            #expect(StoreFileDamage.foldLog(store))
            let size = (try FileManager.default.attributesOfItem(atPath: store)[.size] as? Int) ?? 0
            for page in 2...max(2, size / 4096) { try StoreFileDamage.damage(store, page: page) }
            for arguments in [["add", "Vulcan"], ["list"], ["delete", "Mars"]] {
                let result = try run(["planets"] + arguments + ["--store", store])
                #expect(result.status == 1, "\(result)")
                expectOneLine(result)
            }
        }

        @Test func aHundredKilobyteNameIsShortenedInMessages() throws {
            let folder = try AppTemporaryDirectory()
            let store = folder.path("planets.sqlite")
            let name = String(repeating: "n", count: 100_000)
            for arguments in [
                ["planets", "delete", name], ["planets", "list", "--" + name], ["planets", "list", name], [name],
                ["planets", name], ["locations", "add", "--description", "x", "--category", name, "--latitude", "0", "--longitude", "0"],
            ] {
                let result = try run(arguments + ["--store", store])
                #expect(result.status != 0, "\(arguments.map { $0.prefix(20) })")
                #expect(result.stderr.count < 1_000, "\(arguments.map { $0.prefix(20) }): \(result.stderr.count) characters")
                #expect(
                    result.stderr.contains("(100000 characters)") || result.stderr.contains("(100002 characters)"),
                    "\(result.stderr.prefix(300))")
            }
            // Past the text limit, an add is refused, quoting the name shortened.
            let added = try run(["planets", "add", name, "--store", store])
            #expect(added.status != 0)
            #expect(added.stderr.count < 1_000, "\(added.stderr.count) characters")
        }
    }
}
