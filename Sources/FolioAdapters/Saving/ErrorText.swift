import FolioStore
import Foundation

/// Errors in the words a screen uses, one sentence each: a store error
/// gives its reason (the server's own words go to ``detail(for:)``), an
/// error with a `LocalizedError` description reads as that description
/// (a form's field by its label), and any other as its `description`.
///
/// ```swift
/// presentError(title: "Not Saved", message: ErrorText.sentence(for: error))
/// ```
public enum ErrorText {
    /// A sentence for `error`, beginning with a capital and ending with a full stop.
    ///
    /// ```swift
    /// ErrorText.sentence(for: StoreError.offline(...))   // "The database server cannot be reached; nothing was written."
    /// ```
    public static func sentence(for error: any Error) -> String {
        let text: String
        switch error {
        // The server's own words are the alert's detail (see ``detail(for:)``): a screen says it in one sentence.
        case StoreError.offline: text = "the database server cannot be reached; nothing was written"
        case let error as StoreError: text = oneLine(error.reason)
        case let error as any LocalizedError: text = error.errorDescription ?? "\(error)"
        default: text = "\(error)"
        }
        return sentence(text)
    }

    /// What lies behind ``sentence(for:)`` for an alert's detail (shown
    /// with `?`): a server's own message, on one line; nil when the
    /// sentence says it all.
    ///
    /// ```swift
    /// alert.detail = ErrorText.detail(for: error)
    /// ```
    public static func detail(for error: any Error) -> String? {
        guard case StoreError.offline(_, let message) = error else { return nil }
        let line = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return line.isEmpty ? nil : line
    }

    /// `text` as a sentence: a capital first, a full stop last (unless it ends in one or a question mark).
    package static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        let capitalised = first.uppercased() + text.dropFirst()
        return capitalised.hasSuffix(".") || capitalised.hasSuffix("?") ? capitalised : capitalised + "."
    }

    /// `text` (a message from the store or the system) on one line, its
    /// lines joined by "; ", and at most 1,000 characters.
    package static func oneLine(_ text: String) -> String {
        let lines = text.split(whereSeparator: { $0.isNewline }).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return shortened(lines.joined(separator: "; "), limit: 1000)
    }

    /// The first `limit` characters of a longer text, then "…" and its length.
    package static func shortened(_ text: String, limit: Int) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(limit)) + "… (\(text.count) characters)"
    }
}
