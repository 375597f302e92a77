import FolioResults

/// A batch of changes that UITableView would refuse, with UIKit's message.
///
/// ```swift
/// do { _ = try ResultsBatchApplier.apply(report, to: old, dataSource: new) }
/// catch let error as ResultsBatchError { print(error.message) }
/// ```
public struct ResultsBatchError: Error, CustomStringConvertible, Equatable {
    /// The UIKit rule that failed, e.g. `"E13"`; `"model"` when the counts
    /// agree but the rows do not.
    public var rule: String
    /// The message, in iOS 12 wording.
    public var message: String

    /// Creates an error.
    ///
    /// ```swift
    /// ResultsBatchError(rule: "E2", message: "attempt to delete section 3, but there are only 2 sections before the update")
    /// ```
    public init(rule: String, message: String) {
        self.rule = rule
        self.message = message
    }

    /// `rule: message`.
    ///
    /// ```swift
    /// "\(error)"
    /// ```
    public var description: String { "\(rule): \(message)" }
}
