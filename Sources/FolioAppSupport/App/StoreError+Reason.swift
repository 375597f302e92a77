import FolioStore

extension StoreError {
    /// What went wrong, without the store's path or address: the apps name
    /// the store once, in front ("cannot use the store at planets.sqlite:
    /// …") or not at all (a screen, which only ever shows its own store).
    ///
    /// ```swift
    /// StoreError.busy(path: "/tmp/p.sqlite").reason
    /// // "another program kept the store locked while it saved, longer than the busy timeout"
    /// ```
    public var reason: String {
        switch self {
        case .notADatabase: "it is not a Folio store (not an SQLite database); it was left untouched"
        case let .notAFolioStore(_, reason): "it is not a Folio store (\(reason)); it was left untouched"
        case let .otherSchema(_, stored, expected): "it is a Folio store of \(stored), not of \(expected); it was left untouched"
        case let .corrupt(_, message): "the store is damaged (\(message)); nothing more is written to it"
        case .readOnly: "the store was opened read-only; nothing can be saved to it"
        case let .migrationNeeded(_, reason): "the store needs migrating (\(reason)), which a read-only open cannot do"
        case .busy: "another program kept the store locked while it saved, longer than the busy timeout"
        case .diskFull: "the disk is full; nothing more could be written, and what was saved before is intact"
        case let .cannotOpen(_, message): "the store cannot be opened: \(message)"
        case let .offline(_, message): "the database server cannot be reached (\(message)); nothing was written"
        case .timedOut: "a statement ran past the server's statement timeout and was cancelled; nothing was written"
        case let .server(_, code, message, _): "the database server failed (SQLSTATE \(code)): \(message)"
        default: description
        }
    }
}
