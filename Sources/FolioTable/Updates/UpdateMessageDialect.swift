/// Which iOS version's wording refusal messages use (docs/table-view-rules.md, 2.1).
///
/// ```swift
/// table.messageDialect = .iOS13
/// ```
public enum UpdateMessageDialect: Sendable, CaseIterable {
    /// iOS 12 and earlier: two spaces after "section N." / "sections." (the default).
    case iOS12
    /// iOS 13: one space.
    case iOS13
    /// iOS 14/15: one space, and E13 ends with " Table view: <…>".
    case iOS14
    /// iOS 16.5 and later: E12/E13 become "Invalid batch updates detected…" with
    /// the counts before and after and the updates listed.
    case iOS16
}
