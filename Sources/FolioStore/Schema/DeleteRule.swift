/// What deleting an object does to the objects its relationship points at.
///
///     .toOne(\Animal.classification, "classification", inverse: \Classification.animals, deleteRule: .nullify)
public enum DeleteRule: String, Sendable, Codable {
    /// Remove the deleted object from each related object's inverse.
    case nullify
    /// Delete the related objects too.
    case cascade
    /// Refuse the delete (the save fails) while the relationship has members.
    case deny
}
