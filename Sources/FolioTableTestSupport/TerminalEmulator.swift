import FolioTerminal

/// A small terminal emulator for tests: applies the ANSI bytes a driver wrote
/// (cursor position, SGR, clear, text) to a `Screen`, so that tests can check
/// that the difference written turns the old frame into exactly the new one.
///
/// ```swift
/// var emulator = TerminalEmulator(width: 80, height: 24)
/// emulator.apply(bytes)
/// #expect(emulator.screen == expected)
/// ```
public struct TerminalEmulator: Sendable {
    /// What the terminal shows.
    public private(set) var screen: Screen
    private var row = 0
    private var column = 0
    private var style = Style.plain
    private var regionTop = 0
    private var regionBottom: Int?
    /// Control sequences it did not understand (a test failure waiting to happen).
    public private(set) var unknownSequences: [String] = []

    /// Creates a blank terminal.
    ///
    /// ```swift
    /// let emulator = TerminalEmulator(width: 120, height: 40)
    /// ```
    public init(width: Int, height: Int) {
        screen = Screen(width: width, height: height)
    }

    /// Applies bytes written to the terminal.
    ///
    /// - Complexity: O(n) in the bytes.
    /// ```swift
    /// emulator.apply(Array("\u{1B}[2;3Hx".utf8))
    /// ```
    public mutating func apply(_ bytes: [UInt8]) {
        var index = 0
        var text: [UInt8] = []
        while index < bytes.count {
            if bytes[index] == 0x1B, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") {
                flushText(&text)
                var cursor = index + 2
                while cursor < bytes.count, (0x20...0x3F).contains(bytes[cursor]) { cursor += 1 }
                guard cursor < bytes.count else { break }
                let parameters = String(decoding: bytes[(index + 2)..<cursor], as: UTF8.self)
                control(parameters, final: Character(UnicodeScalar(bytes[cursor])))
                index = cursor + 1
            } else {
                text.append(bytes[index])
                index += 1
            }
        }
        flushText(&text)
    }

    private mutating func flushText(_ text: inout [UInt8]) {
        guard !text.isEmpty else { return }
        for character in String(decoding: text, as: UTF8.self) {
            let width = DisplayWidth.of(character)
            guard width > 0, row < screen.height, column + width <= screen.width else { continue }
            screen[column, row] = Cell(text: String(character), style: style, width: UInt8(width))
            if width == 2 { screen[column + 1, row] = Cell(text: "", style: style, width: 0) }
            column = min(column + width, screen.width - 1)
        }
        text.removeAll()
    }

    private mutating func control(_ parameters: String, final: Character) {
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        switch final {
        case "H":
            row = max(1, numbers.first ?? 1) - 1
            column = max(1, numbers.count > 1 ? numbers[1] : 1) - 1
        case "J" where parameters == "2":
            screen = Screen(width: screen.width, height: screen.height)
        case "r":
            regionTop = parameters.isEmpty ? 0 : max(1, numbers[0]) - 1
            regionBottom = parameters.isEmpty ? nil : min(screen.height, numbers.count > 1 ? numbers[1] : screen.height) - 1
            row = 0
            column = 0
        case "S", "T":
            let amount = max(1, numbers.first ?? 1) * (final == "S" ? 1 : -1)
            let bottom = regionBottom ?? screen.height - 1
            var scrolled = Screen(width: screen.width, height: screen.height)
            for target in 0..<screen.height {
                let source = target + amount
                let inRegion = target >= regionTop && target <= bottom
                let from = inRegion ? source : target
                guard from >= 0, from < screen.height, !inRegion || (source >= regionTop && source <= bottom) else {
                    continue  // a blank row scrolled in
                }
                for x in 0..<screen.width { scrolled[x, target] = screen[x, from] }
            }
            screen = scrolled
        case "m":
            style = .plain
            for code in numbers {
                switch code {
                case 0: style = .plain
                case 1: style.attributes.insert(.bold)
                case 2: style.attributes.insert(.dim)
                case 4: style.attributes.insert(.underline)
                case 7: style.attributes.insert(.reverse)
                case 30...37: style.foreground = Color(rawValue: UInt8(code - 30))
                case 90...97: style.foreground = Color(rawValue: UInt8(code - 90 + 8))
                case 40...47: style.background = Color(rawValue: UInt8(code - 40))
                case 100...107: style.background = Color(rawValue: UInt8(code - 100 + 8))
                default: unknownSequences.append("SGR \(code)")
                }
            }
        default:
            if !parameters.hasPrefix("?") { unknownSequences.append("CSI \(parameters)\(final)") }
        }
    }
}
