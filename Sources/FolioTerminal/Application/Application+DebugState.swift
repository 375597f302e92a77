import FolioTable

/// What a screen tells the debug state hook (`FOLIO_DEBUG_STATE=1`): the
/// screen shown inside it, and facts about itself. Tests that drive the real
/// program read these; without the variable nothing asks.
package protocol DebugInspectable: AnyObject {
    /// The screen shown inside this one, when it is a container.
    @MainActor var debugVisibleChild: ViewController? { get }
    /// Facts about this screen (the highlighted row, a revealed action...).
    @MainActor var debugFacts: [String: String] { get }
}

extension DebugInspectable {
    package var debugVisibleChild: ViewController? { nil }
    package var debugFacts: [String: String] { [:] }
}

/// A table screen that can name the object on a row, so that a test can
/// check that an action changed the object the screen showed highlighted.
package protocol DebugRowIdentifying: AnyObject {
    /// A stable name of the object on `indexPath` (its store ID), or nil.
    @MainActor func debugIdentifier(forRowAt indexPath: IndexPath) -> String?
}

extension Application {
    /// The environment variable that turns the debug state hook on.
    package static let debugStateVariable = "FOLIO_DEBUG_STATE"

    /// The state after the input read so far was handled and the frame drawn:
    /// the sizes, the input bytes handled, the frames composed, the status
    /// ("saving…" while a save waits), the alert or
    /// help shown, and the facts of every screen from the root to the one
    /// shown. Sent in-band after the frame as a DCS string that terminals
    /// ignore (`ESC P folio-state;{json} ESC \`), so a test reading the
    /// terminal knows which keys the frame it has already reflects.
    package var debugState: [String: String] {
        let size = driver.size
        var facts: [String: String] = [
            "columns": "\(size.columns)", "rows": "\(size.rows)",
            "input": "\(inputBytesReceived)", "pending": hasPendingInput ? "1" : "0",
            "frames": "\(framesComposed)", "help": isShowingHelp ? "1" : "0",
            "editingText": root.isEditingText ? "1" : "0",
        ]
        if let status { facts["status"] = status }
        if let indicator = root.syncIndicator { facts["sync"] = indicator.text }
        if let alert = presentedAlert {
            facts["alert"] = alert.title ?? ""
            facts["alertMessage"] = alert.message ?? ""
        }
        var node: ViewController? = root
        var depth = 0
        while let current = node, depth < 16 {
            if let inspectable = current as? any DebugInspectable {
                facts.merge(inspectable.debugFacts) { $1 }
                node = inspectable.debugVisibleChild
            } else {
                node = nil
            }
            facts["screen"] = current.title
            depth += 1
        }
        return facts
    }

    /// The DCS string carrying `debugState`, keys sorted.
    package var debugStateSequence: String {
        let body = debugState.sorted { $0.key < $1.key }
            .map { "\"\(Self.jsonEscaped($0.key))\":\"\(Self.jsonEscaped($0.value))\"" }
            .joined(separator: ",")
        return "\u{1B}Pfolio-state;{\(body)}\u{1B}\\"
    }

    /// Sends the state to the hook, when one is installed.
    func emitDebugState() {
        guard let debugStateSink else { return }
        debugStateSink(debugStateSequence)
    }

    private static func jsonEscaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension NavigationController: DebugInspectable {
    package var debugVisibleChild: ViewController? { topViewController }
    package var debugFacts: [String: String] { ["depth": "\(viewControllers.count)"] }
}

extension TabBarController: DebugInspectable {
    package var debugVisibleChild: ViewController? { selectedViewController }
    package var debugFacts: [String: String] { ["tab": "\(selectedIndex)"] }
}
