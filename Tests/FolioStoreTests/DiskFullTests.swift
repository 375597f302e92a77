import FolioTestSupport
import Foundation
import Testing

/// Finding 10 (full disk): whatever the moment the disk fills (before the
/// `-shm` index exists, in a save, while a new store is written), the error
/// says the disk is full. The disk is a real 256 KiB tmpfs, mounted in a
/// mount namespace of the child's own (`unshare`), so nothing outside sees it.
@Suite struct DiskFullTests {
    /// `unshare` flags that let this user mount a tmpfs, or nil where it cannot.
    static let namespace: [String]? = {
        for flags in getuid() == 0 ? [["-m"], ["-Urm"]] : [["-Urm"]] {
            if let result = try? AppProcess.run(URL(fileURLWithPath: "/usr/bin/unshare"), flags + ["--propagation", "private", "true"]),
                result.status == 0
            {
                return flags
            }
        }
        return nil
    }()

    @Test(.enabled(if: namespace != nil, "cannot mount a small file system here (unshare -m)"))
    func aFullDiskSaysSoWhateverTheMoment() throws {
        let dir = try StoreTemporaryDirectory()
        let worker = StoreChildProcess.sibling("folio-store-worker")
        let script = "mount -t tmpfs -o size=256k tmpfs \"$1\" && exec \"$2\" disk-full \"$1\""
        let result = try AppProcess.run(
            URL(fileURLWithPath: "/usr/bin/unshare"),
            (Self.namespace ?? []) + ["--propagation", "private", "/bin/sh", "-c", script, "sh", dir.url.path, worker.path])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(result)")
        for line in lines {
            #expect(line.contains("is full") && !line.contains("SQLite error"), "\(line)")
        }
    }
}
