import FolioStore
import Testing

@Suite struct SmokeTests {
    @Test func sqliteIsLinked() {
        #expect(FolioStore.sqliteVersion.hasPrefix("3."))
    }
}
