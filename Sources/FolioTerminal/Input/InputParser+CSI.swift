extension InputParser.Scanner {
    /// ESC [ parameters intermediates final.
    mutating func csi() -> Bool {
        var cursor = index + 2
        while cursor < bytes.count, (0x20...0x3F).contains(bytes[cursor]) {
            cursor += 1
        }
        guard cursor < bytes.count else {
            if !atEnd { return false }
            // An unfinished sequence at the very end: Esc, then the rest as typed.
            index += 1
            emit(.escape)
            return true
        }
        let final = bytes[cursor]
        guard (0x40...0x7E).contains(final) else {
            // Not a sequence after all: Esc, then the bytes as typed.
            index += 1
            emit(.escape)
            return true
        }
        let parameters = String(decoding: bytes[(index + 2)..<cursor], as: UTF8.self)
        index = cursor + 1
        if parameters.hasPrefix("<") {
            mouse(parameters.dropFirst(), pressed: final == UInt8(ascii: "M"))
            return true
        }
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        let first = numbers.first.flatMap { $0 } ?? 1
        let modifiers = Key.Modifiers.xterm(numbers.count > 1 ? (numbers[1] ?? 1) : 1)
        switch final {
        case UInt8(ascii: "A"): emit(.up, modifiers)
        case UInt8(ascii: "B"): emit(.down, modifiers)
        case UInt8(ascii: "C"): emit(.right, modifiers)
        case UInt8(ascii: "D"): emit(.left, modifiers)
        case UInt8(ascii: "a"): emit(.up, .shift)
        case UInt8(ascii: "b"): emit(.down, .shift)
        case UInt8(ascii: "c"): emit(.right, .shift)
        case UInt8(ascii: "d"): emit(.left, .shift)
        case UInt8(ascii: "H"): emit(.home, modifiers)
        case UInt8(ascii: "F"): emit(.end, modifiers)
        case UInt8(ascii: "Z"): emit(.backTab)
        case UInt8(ascii: "P")...UInt8(ascii: "S"): emit(.function(Int(final) - 0x50 + 1), modifiers)
        case UInt8(ascii: "~"):
            if first == 200 { return paste(start: cursor + 1) }
            if let code = Self.tildeKey(first) { emit(code, modifiers) }
        default:
            break  // focus reports and unknown sequences: dropped
        }
        return true
    }

    static func tildeKey(_ number: Int) -> Key.Code? {
        switch number {
        case 1, 7: return .home
        case 2: return .insert
        case 3: return .delete
        case 4, 8: return .end
        case 5: return .pageUp
        case 6: return .pageDown
        case 11...15: return .function(number - 10)
        case 17...21: return .function(number - 11)
        case 23, 24: return .function(number - 12)
        default: return nil
        }
    }

    /// Bracketed paste: everything up to ESC [ 201 ~ is text, never keys.
    /// A paste whose end has not come yet is taken whole (`openPaste`); the
    /// parser goes on collecting it from the next reads.
    mutating func paste(start: Int) -> Bool {
        if let end = InputParser.find(InputParser.pasteEnd, in: bytes, from: start) {
            emit(.paste(String(decoding: bytes[start..<end], as: UTF8.self)))
            index = end + InputParser.pasteEnd.count
            return true
        }
        if atEnd { emit(.paste(String(decoding: bytes[start...], as: UTF8.self))) }
        flushText()
        openPaste = start
        index = bytes.count
        return true
    }

    /// SGR mouse: `<button;column;row` then M (press, drag, wheel) or m (release).
    mutating func mouse(_ parameters: Substring, pressed: Bool) {
        let numbers = parameters.split(separator: ";").compactMap { Int($0) }
        guard numbers.count == 3 else { return }
        let code = numbers[0]
        var modifiers: Key.Modifiers = []
        if code & 4 != 0 { modifiers.insert(.shift) }
        if code & 8 != 0 { modifiers.insert(.alt) }
        if code & 16 != 0 { modifiers.insert(.control) }
        let button: MouseEvent.Button? =
            switch code & 3 {
            case 0: .left
            case 1: .middle
            case 2: .right
            default: nil
            }
        let kind: MouseEvent.Kind
        if code & 64 != 0 {
            kind =
                switch code & 3 {
                case 0: .wheelUp
                case 1: .wheelDown
                case 2: .wheelLeft
                default: .wheelRight
                }
        } else if !pressed {
            kind = .release
        } else if code & 32 != 0 {
            kind = button.map { .drag($0) } ?? .move
        } else if let button {
            kind = .press(button)
        } else {
            return
        }
        emit(.mouse(MouseEvent(kind: kind, column: max(0, numbers[1] - 1), row: max(0, numbers[2] - 1), modifiers: modifiers)))
    }
}
