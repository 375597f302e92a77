import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// A read by someone who may not write the store makes nothing beside
    /// it: no `-wal` or `-shm` owned by the reader, which would block the
    /// owner's saves (and, in a sticky folder, could not even be removed).
    @Suite struct ReadingLeavesNoFileEndToEndTests {
        /// The files of the folder and their owners.
        func owners(_ folder: String) throws -> [String: uid_t] {
            var result: [String: uid_t] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
                var info = stat()
                if lstat(folder + "/" + name, &info) == 0 { result[name] = info.st_uid }
            }
            return result
        }

        @Test func aReaderWhoMayNotWriteTheStoreLeavesNoFile() throws {
            let binary = try AppProcess.folioBinary()
            let temporary = try AppTemporaryDirectory()
            // A shared folder with the sticky bit, as /tmp is.
            let folder = temporary.path("shared")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            #expect(chmod(folder, 0o1777) == 0 && chmod(temporary.url.path, 0o755) == 0)
            let store = folder + "/planets.sqlite"
            #expect(try AppProcess.run(binary, ["planets", "add", "Vulcan", "--store", store]).status == 0)
            // As the owner left it after a clean close: the store alone.
            for log in ["-wal", "-shm"] { unlink(store + log) }
            #expect(chmod(store, 0o644) == 0)
            let before = try owners(folder)
            // Another user where this runs as root; else the owner, on a store it made write-protected.
            let reader: [String]
            if getuid() == 0 {
                reader = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", binary.path]
            } else {
                #expect(chmod(store, 0o444) == 0)
                reader = [binary.path]
            }
            let listed = try AppProcess.run(
                URL(fileURLWithPath: reader[0]), Array(reader.dropFirst()) + ["planets", "list", "--store", store])
            #expect(listed.status == 0, "\(listed)")
            #expect(listed.stdout.contains("Vulcan"))
            #expect(try owners(folder) == before, "the read made files beside the store")
            #expect(chmod(store, 0o644) == 0)
            #expect(try AppProcess.run(binary, ["planets", "add", "Romulus", "--store", store]).status == 0)
        }
    }
}
