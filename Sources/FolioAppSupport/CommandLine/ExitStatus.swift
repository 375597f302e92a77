/// The exit statuses every `folio` command ends with.
///
/// ```swift
/// exit(ExitStatus.usage.rawValue)   // 2
/// ```
public enum ExitStatus: Int32, Sendable {
    /// The command did what it was asked.
    case success = 0
    /// Not found, an invalid value, a store that cannot be used.
    case failure = 1
    /// The command line itself is wrong.
    case usage = 2
    /// `sync` could not reach the server: the replica's changes still wait.
    case offline = 3
}
