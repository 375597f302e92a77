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
        case let error as StoreError: text = AppError.oneLine(error.reason)
        default: text = "\(error)"
        }
        guard let first = text.first else { return text }
        let capitalised = first.uppercased() + text.dropFirst()
        return capitalised.hasSuffix(".") || capitalised.hasSuffix("?") ? capitalised : capitalised + "."
    }
}

extension AppError {
    /// The error as a screen shows it: the field's name, what is wrong, and
    /// the value typed (shortened).
    public var screenDescription: String {
        switch self {
        case .invalidValue(let field, let value, let reason):
            let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
            return value.isEmpty ? "\(field): \(reason)" : "\(field): \(reason) (“\(shown)”)"
        case .store(_, let message):
            return Self.oneLine(message)
        default:
            return description
        }
    }
}
