import FolioAdapters
import FolioStore
import Foundation

extension ErrorText {
    /// A sentence for `error` where several stores are in play (the
    /// launcher): `namingTheStore` puts the store's file in front of an
    /// app's store error; otherwise as ``FolioAdapters/ErrorText/sentence(for:)``.
    ///
    /// ```swift
    /// presentError(title: "Cannot Open", message: ErrorText.sentence(for: error, namingTheStore: true))
    /// ```
    public static func sentence(for error: any Error, namingTheStore: Bool) -> String {
        guard namingTheStore, let error = error as? AppError else { return sentence(for: error) }
        return sentence(error.description)
    }
}

/// A screen shows an app's error as ``AppError/screenDescription``.
extension AppError: LocalizedError {
    /// The error as a screen shows it (see ``screenDescription``).
    public var errorDescription: String? { screenDescription }
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
