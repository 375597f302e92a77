import FolioStore

/// Errors in the words a screen uses: a form names its fields ("Latitude"),
/// never a command-line option, and a store error reads as a sentence.
///
/// ```swift
/// presentError(title: "Not Saved", message: ErrorText.sentence(for: error))
/// ```
public enum ErrorText {
    /// A sentence for `error`, beginning with a capital and ending with a full stop.
    /// A screen shows one store, so store errors give the reason alone; where
    /// several stores are in play (the launcher), `namingTheStore` puts the
    /// store's file in front.
    public static func sentence(for error: any Error, namingTheStore: Bool = false) -> String {
        let text: String
        switch error {
        case let error as AppError where namingTheStore: text = error.description
        case let error as AppError: text = error.screenDescription
        // The server's own words are the alert's detail (see ``detail(for:)``): a screen says it in one sentence.
        case StoreError.offline: text = "the database server cannot be reached; nothing was written"
        case let error as StoreError: text = AppError.oneLine(error.reason)
        default: text = "\(error)"
        }
        guard let first = text.first else { return text }
        let capitalised = first.uppercased() + text.dropFirst()
        return capitalised.hasSuffix(".") || capitalised.hasSuffix("?") ? capitalised : capitalised + "."
    }
}

extension ErrorText {
    /// What lies behind ``sentence(for:namingTheStore:)`` for an alert's
    /// detail (shown with `?`): a server's own message, on one line; nil when
    /// the sentence says it all.
    ///
    /// ```swift
    /// alert.detail = ErrorText.detail(for: error)
    /// ```
    public static func detail(for error: any Error) -> String? {
        guard case StoreError.offline(_, let message) = error else { return nil }
        let line = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return line.isEmpty ? nil : line
    }
}

extension AppError {
    /// The error as a screen shows it: the field's name, what is wrong, and
    /// the value typed (shortened).
    public var screenDescription: String {
        switch self {
        case .invalidValue(let field, let value, let reason):
            let shown = TextInput.shortened(value, to: 40)
            return value.isEmpty ? "\(field): \(reason)" : "\(field): \(reason) (“\(shown)”)"
        case .store(_, let message):
            return Self.oneLine(message)
        default:
            return description
        }
    }
}
