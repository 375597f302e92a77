import Testing

@testable import FolioAppSupport

@Suite struct RawCommandLineTests {
    @Test func utf8ArgumentsAreKeptExactly() throws {
        let tokens = ["planets", "add", "Mañana\u{2028}🚀", "--store", "/tmp/ä.sqlite"]
        #expect(try RawCommandLine.arguments(tokens.map { Array($0.utf8) }) == tokens)
    }

    /// Bytes that lossy decoding turns into U+FFFD: lone continuation and
    /// lead bytes, overlong forms, surrogates, code points past U+10FFFF.
    @Test(
        arguments: [
            [0xFF], [0xFE], [0x80], [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82],
        ] as [[UInt8]])
    func argumentsThatAreNotUTF8AreRefusedByNumber(_ bad: [UInt8]) {
        let raw = [Array("planets".utf8), Array("a".utf8) + bad + Array(".sqlite".utf8)]
        #expect(throws: AppError.self) { try RawCommandLine.arguments(raw) }
        do {
            _ = try RawCommandLine.arguments(raw)
        } catch let error as AppError {
            let hex = bad.map { "\\x" + String($0, radix: 16, uppercase: true) }.joined()
            #expect(error.description.hasPrefix("argument 2 ('a\(hex).sqlite') is not UTF-8 text"), "\(error)")
            #expect(error.exitStatus == .usage)
        } catch {
            Issue.record("\(error)")
        }
    }
}
