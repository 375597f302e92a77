/// A key press: which key, and the modifiers held.
///
/// ```swift
/// Key(.up)                      // Up arrow
/// Key(.up, modifiers: .shift)   // Shift+Up
/// Key(.character("j"))          // j
/// Key(.character("c"), modifiers: .control) // Ctrl-C
/// ```
public struct Key: Hashable, Sendable {
    /// Which key.
    public var code: Code
    /// Shift, Alt, Control.
    public var modifiers: Modifiers

    /// Creates a key press.
    ///
    /// ```swift
    /// let shiftDown = Key(.down, modifiers: .shift)
    /// ```
    public init(_ code: Code, modifiers: Modifiers = []) {
        self.code = code
        self.modifiers = modifiers
    }

    /// The keys the parser tells apart.
    ///
    /// ```swift
    /// if case .character(let c) = key.code { print(c) }
    /// ```
    public enum Code: Hashable, Sendable {
        /// A printable grapheme (a letter, digit, CJK character, emoji...).
        case character(Character)
        /// An arrow key.
        case up, down, left, right
        /// A key that moves by a page or to an end.
        case home, end, pageUp, pageDown
        /// An editing key (`delete` is forward delete; `backspace` deletes backwards).
        case insert, delete, backspace
        /// Return, Tab, Shift-Tab or Escape.
        case enter, tab, backTab, escape
        /// F1...F12.
        case function(Int)
    }

    /// Modifier keys.
    ///
    /// ```swift
    /// key.modifiers.contains(.shift)
    /// ```
    public struct Modifiers: OptionSet, Hashable, Sendable {
        /// The raw bits.
        public let rawValue: UInt8
        /// Creates modifiers from raw bits.
        ///
        /// ```swift
        /// Key.Modifiers(rawValue: 1) // .shift
        /// ```
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Shift.
        public static let shift = Modifiers(rawValue: 1 << 0)
        /// Alt (Meta).
        public static let alt = Modifiers(rawValue: 1 << 1)
        /// Control.
        public static let control = Modifiers(rawValue: 1 << 2)

        /// From the xterm modifier parameter (`1 + bits`).
        static func xterm(_ parameter: Int) -> Modifiers {
            let bits = max(0, parameter - 1)
            var result: Modifiers = []
            if bits & 1 != 0 { result.insert(.shift) }
            if bits & 2 != 0 { result.insert(.alt) }
            if bits & 4 != 0 { result.insert(.control) }
            return result
        }
    }

    /// The character, when the key is a printable one with no modifiers but Shift.
    ///
    /// ```swift
    /// Key(.character("q")).character // "q"
    /// ```
    public var character: Character? {
        guard case .character(let character) = code, modifiers.isSubset(of: .shift) else { return nil }
        return character
    }

    /// A short name for help and key hints ("↑", "Enter", "Ctrl-C", "q").
    ///
    /// ```swift
    /// Key(.escape).name // "Esc"
    /// ```
    public var name: String {
        var prefix = ""
        if modifiers.contains(.control) { prefix += "Ctrl-" }
        if modifiers.contains(.alt) { prefix += "Alt-" }
        if modifiers.contains(.shift), character == nil { prefix += "Shift-" }
        let base: String
        switch code {
        case .character(let character): base = String(character)
        case .up: base = "↑"
        case .down: base = "↓"
        case .left: base = "←"
        case .right: base = "→"
        case .home: base = "Home"
        case .end: base = "End"
        case .pageUp: base = "PgUp"
        case .pageDown: base = "PgDn"
        case .insert: base = "Ins"
        case .delete: base = "Del"
        case .backspace: base = "Backspace"
        case .enter: base = "Enter"
        case .tab: base = "Tab"
        case .backTab: base = "Shift-Tab"
        case .escape: base = "Esc"
        case .function(let number): base = "F\(number)"
        }
        return prefix + base
    }
}
