import Testing
import FolioStore

@Suite struct SmokeTests {
    @Test func sqliteIsLinked() {
        #expect(FolioStore.sqliteVersion.hasPrefix("3."))
    }
}
