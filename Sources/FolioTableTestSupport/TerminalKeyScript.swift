import FolioTerminal

/// Key scripts for driving an `Application` in tests: words that name keys
/// and mouse gestures, turned into the exact bytes a terminal sends, so the
/// whole path (parser, routing, drawing) runs.
///
/// Words: `Up Down Left Right Enter Esc Tab S-Tab Backspace Del Home End PgUp
/// PgDn`, `S-Up S-Down` (Shift), `C-x` (Ctrl), a single character (`j`, `+`,
/// `?`), `'quoted text'` typed, `paste:'text'`, and mouse words
/// `click:C,R`, `press:C,R`, `drag:C,R`, `release:C,R`, `wheelup:C,R`,
/// `wheeldown:C,R` with 0-based column and row.
/// ```swift
/// app.send("j j Enter")
/// app.send("h Enter")            // swipe, then the focused action
/// app.send("Enter 'Hello' Enter") // edit a text field
/// ```
public enum TerminalKeyScript {
    /// Splits a script into words, keeping quoted text whole.
    ///
    /// ```swift
    /// TerminalKeyScript.words("j 'a b' Enter") // ["j", "'a b'", "Enter"]
    /// ```
    public static func words(_ script: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        for character in script {
            if character == "'" { quoted.toggle() }
            if character == " " && !quoted {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// The bytes a terminal sends for one word.
    ///
    /// ```swift
    /// TerminalKeyScript.bytes(for: "S-Up") // ESC [ 1 ; 2 A
    /// ```
    public static func bytes(for word: String) -> [UInt8] {
        let named: [String: String] = [
            "Up": "\u{1B}[A", "Down": "\u{1B}[B", "Right": "\u{1B}[C", "Left": "\u{1B}[D",
            "S-Up": "\u{1B}[1;2A", "S-Down": "\u{1B}[1;2B", "S-Right": "\u{1B}[1;2C", "S-Left": "\u{1B}[1;2D",
            "Enter": "\r", "Esc": "\u{1B}", "Tab": "\t", "S-Tab": "\u{1B}[Z", "Backspace": "\u{7F}",
            "Del": "\u{1B}[3~", "Home": "\u{1B}[H", "End": "\u{1B}[F", "PgUp": "\u{1B}[5~", "PgDn": "\u{1B}[6~",
            "Space": " ",
        ]
        if let sequence = named[word] { return Array(sequence.utf8) }
        if word.hasPrefix("C-"), word.count == 3, let letter = word.last?.asciiValue {
            return [letter & 0x1F]
        }
        if word.hasPrefix("paste:'"), word.hasSuffix("'") {
            return Array(("\u{1B}[200~" + word.dropFirst(7).dropLast() + "\u{1B}[201~").utf8)
        }
        if word.count > 1, word.hasPrefix("'"), word.hasSuffix("'") {
            return Array(word.dropFirst().dropLast().utf8)
        }
        if let colon = word.firstIndex(of: ":") {
            let kind = word[..<colon]
            let numbers = word[word.index(after: colon)...].split(separator: ",").compactMap { Int($0) }
            precondition(numbers.count == 2, "mouse word '\(word)' needs a column and a row, like click:3,5")
            let (column, row) = (numbers[0] + 1, numbers[1] + 1)
            func sgr(_ code: Int, _ final: String) -> String { "\u{1B}[<\(code);\(column);\(row)\(final)" }
            switch kind {
            case "click": return Array((sgr(0, "M") + sgr(0, "m")).utf8)
            case "press": return Array(sgr(0, "M").utf8)
            case "drag": return Array(sgr(32, "M").utf8)
            case "release": return Array(sgr(0, "m").utf8)
            case "wheelup": return Array(sgr(64, "M").utf8)
            case "wheeldown": return Array(sgr(65, "M").utf8)
            default: preconditionFailure("unknown mouse word '\(word)'")
            }
        }
        precondition(word.count == 1, "unknown key word '\(word)'")
        return Array(word.utf8)
    }
}

extension Application {
    /// Sends a key script word by word, as a terminal would, with a pause
    /// after each (so a lone Esc is Esc), drawing after each word.
    ///
    /// ```swift
    /// app.send("j j h Enter")
    /// ```
    public func send(_ script: String) {
        for word in TerminalKeyScript.words(script) {
            receive(TerminalKeyScript.bytes(for: word))
            flushInput()
        }
        render()
    }
}
