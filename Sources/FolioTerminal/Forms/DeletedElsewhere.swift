/// What a save was to change is gone: another program (or another screen)
/// deleted it before the save could write, so nothing was written. A
/// followed form throws it from ``FormController/requireNoChangeElsewhere()``
/// when its source reads as gone.
///
/// ```swift
/// guard let planet = try? context.existingObject(with: id) else { throw DeletedElsewhere() }
/// ```
public struct DeletedElsewhere: Error, CustomStringConvertible {
    /// The error; it names nothing, as the screen that shows it knows what it edits.
    ///
    /// ```swift
    /// throw DeletedElsewhere()
    /// ```
    public init() {}

    /// "it was deleted elsewhere in the meantime", to follow a screen's own words.
    ///
    /// ```swift
    /// "Not saved: \(DeletedElsewhere())"
    /// ```
    public var description: String { "it was deleted elsewhere in the meantime" }
}
