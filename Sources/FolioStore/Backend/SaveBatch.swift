/// Everything one save writes.
struct SaveBatch {
    struct Insert { var entity: EntityDescription; var id: ObjectID; var attrs: [StoreValue]; var ones: [ObjectID?] }
    struct Update {
        var entity: EntityDescription; var id: ObjectID
        var attrs: [(PropertyDescription, StoreValue)]; var ones: [(PropertyDescription, ObjectID?)]
    }
    struct Membership { var property: PropertyDescription; var owner: ObjectID; var member: ObjectID }
    struct Order { var property: PropertyDescription; var owner: ObjectID; var members: [ObjectID] }

    var inserts: [Insert] = []
    var updates: [Update] = []
    var deletes: [(EntityDescription, ObjectID)] = []
    var joinAdds: [Membership] = []
    var joinRemoves: [Membership] = []
    var orders: [Order] = []
    /// Updated and deleted objects for the history (inserted ones come from the inserts).
    var changes = ChangeSet()

    /// Whether any written value refers to an object inserted by this save.
    var refersToNewObjects: Bool {
        inserts.contains { $0.ones.contains { $0?.isTemporary == true } }
            || updates.contains { $0.ones.contains { $0.1?.isTemporary == true } }
            || joinAdds.contains { $0.owner.isTemporary || $0.member.isTemporary }
            || orders.contains { $0.owner.isTemporary || $0.members.contains(where: \.isTemporary) }
    }
}
