import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// Arguments and store variables that are not UTF-8 are refused by the
    /// release binary, touching nothing: read lossily, `a\xff.sqlite` and
    /// `a\xfe.sqlite` were both `a\u{FFFD}.sqlite`, one file for two names.
    @Suite struct RawArgumentsEndToEndTests {
        /// Runs `folio` through the shell, so that arguments can be any bytes (`printf` escapes).
        func folio(_ script: String) throws -> AppProcess.Result {
            try AppProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script, try AppProcess.folioBinary().path])
        }

        @Test func pathsThatAreNotUTF8AreRefusedAndNothingIsCreated() throws {
            let folder = try AppTemporaryDirectory()
            for byte in ["377", "376"] {
                let added = try folio(#"exec "$0" planets add Vulcan --store "\#(folder.path("a"))$(printf '\\#(byte)').sqlite""#)
                #expect(added.status == 2, "\(added)")
                #expect(added.stderr.contains("is not UTF-8 text"), "\(added)")
                #expect(added.stderr.contains(#"a\x\#(byte == "377" ? "FF" : "FE").sqlite"#), "\(added)")
            }
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
            #expect(left.isEmpty, "\(left)")
        }

        @Test func namesThatAreNotUTF8AreRefused() throws {
            let folder = try AppTemporaryDirectory()
            let store = folder.path("planets.sqlite")
            let added = try folio(#"exec "$0" planets add "Vulcan$(printf '\300\200')" --store "\#(store)""#)
            #expect(added.status == 2, "\(added)")
            #expect(added.stderr.contains(#"'Vulcan\xC0\x80'"#), "\(added)")
            #expect(!FileManager.default.fileExists(atPath: store))
        }

        @Test func storeVariablesThatAreNotUTF8AreRefusedOnlyWhenUsed() throws {
            let folder = try AppTemporaryDirectory()
            let variable = try folio(#"FOLIO_STORE="\#(folder.path("b"))$(printf '\377')" exec "$0" planets add Vulcan"#)
            #expect(variable.status == 2, "\(variable)")
            #expect(variable.stderr.contains("$FOLIO_STORE is not UTF-8 text"), "\(variable)")
            let home = try folio(#"HOME="\#(folder.path("h"))$(printf '\377')" XDG_DATA_HOME= FOLIO_STORE= exec "$0" planets list"#)
            #expect(home.status == 2, "\(home)")
            #expect(home.stderr.contains("$HOME is not UTF-8 text"), "\(home)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
            // Named by --store, the store does not need them.
            let store = folder.path("planets.sqlite")
            let listed = try folio(
                #"HOME="/tmp/$(printf '\377')" FOLIO_STORE="x$(printf '\377')" exec "$0" planets list --store "\#(store)""#)
            #expect(listed.status == 0, "\(listed)")
        }
    }
}
