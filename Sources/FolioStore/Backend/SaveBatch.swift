/// Everything one save writes.
package struct SaveBatch {
    package struct Insert {
        package var entity: EntityDescription; package var id: ObjectID
        package var attrs: [StoreValue]; package var ones: [ObjectID?]
    }
    /// `version` is the row's version the context read: the write must find it unchanged.
    package struct Update {
        package var entity: EntityDescription; package var id: ObjectID
        package var attrs: [(PropertyDescription, StoreValue)]; package var ones: [(PropertyDescription, ObjectID?)]
        package var version: Int64
    }
    /// `version` as an update's; a row already gone is no conflict (both sides wanted it gone).
    package struct Delete { package var entity: EntityDescription; package var id: ObjectID; package var version: Int64 }
    package struct Membership { package var property: PropertyDescription; package var owner: ObjectID; package var member: ObjectID }
    package struct Order { package var property: PropertyDescription; package var owner: ObjectID; package var members: [ObjectID] }

    package var inserts: [Insert] = []
    package var updates: [Update] = []
    package var deletes: [Delete] = []
    package var joinAdds: [Membership] = []
    package var joinRemoves: [Membership] = []
    package var orders: [Order] = []
    /// Updated and deleted objects for the history (inserted ones come from the inserts).
    package var changes = ChangeSet()

    /// Whether any written value refers to an object inserted by this save.
    package var refersToNewObjects: Bool {
        inserts.contains { $0.ones.contains { $0?.isTemporary == true } }
            || updates.contains { $0.ones.contains { $0.1?.isTemporary == true } }
            || joinAdds.contains { $0.owner.isTemporary || $0.member.isTemporary }
            || orders.contains { $0.owner.isTemporary || $0.members.contains(where: \.isTemporary) }
    }
}
