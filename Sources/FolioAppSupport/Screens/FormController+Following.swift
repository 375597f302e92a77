import FolioStore
import FolioTerminal

extension FormController {
    /// The object a form edits and how to read its values.
    struct FollowedObject {
        let id: ObjectID
        let context: ObjectContext
        /// What the object is called in messages ("location").
        let noun: String
        /// The object's values as the form's fields and lists hold them.
        let read: @MainActor (ManagedObject) -> Values
        /// The values last read from the object.
        var baseline: Values
        var observation: ObservationToken?
    }

    /// Makes the form follow the object it edits. When another context or
    /// process deletes it, the form says so and closes without writing;
    /// when they change it, the fields the user has not touched show the new
    /// values, and a change to a field the user edited is pointed out (Done
    /// keeps the user's value). Done never runs on an object that is gone,
    /// and writes only ``changedValues``.
    ///
    /// ```swift
    /// form.follow(location, in: context, noun: "location") { LocationForm.values(of: $0 as! Location) }
    /// ```
    ///
    /// `lists` reads the values of the form's list sections (a build order).
    public func follow(
        _ object: ManagedObject, in context: ObjectContext, noun: String,
        values: @escaping @MainActor (ManagedObject) -> [String: String],
        lists: @escaping @MainActor (ManagedObject) -> [String: [String]] = { _ in [:] }
    ) {
        let read: @MainActor (ManagedObject) -> Values = { Values(texts: values($0), lists: lists($0)) }
        var followed = FollowedObject(
            id: object.objectID, context: context, noun: noun, read: read,
            baseline: read(object), observation: nil)
        followed.observation = context.observeChanges { [weak self] changes in
            // Only saves by others: this context's own unsaved changes (`.pending`,
            // heard while Done saves) are the user's edit, not a change elsewhere.
            guard changes.origin == .otherContext || changes.origin == .otherProcess else { return }
            self?.objectMayHaveChanged(changes)
        }
        self.followed = followed
    }

    /// The followed object as the store has it now, or nil when it is gone.
    /// The form keeps its values apart, so the object has no unsaved changes
    /// and is read afresh: a deletion not yet heard is found too.
    func followedObject() -> ManagedObject? {
        guard let followed else { return nil }
        let registered = followed.context.object(with: followed.id)
        if !registered.hasChanges && !registered.isFault { followed.context.refresh(registered, mergeChanges: false) }
        guard let object = try? followed.context.existingObject(with: followed.id), !object.isDeleted else { return nil }
        return object
    }

    /// Whether the form follows an object that no longer exists.
    func followedObjectIsGone() -> Bool {
        followed != nil && followedObject() == nil
    }

    private func objectMayHaveChanged(_ changes: ChangeSet) {
        guard let followed else { return }
        guard let object = followedObject() else { return closeForGoneObject() }
        let (fresh, changedKeys) = readValues(of: object, followed)
        guard !changedKeys.isEmpty else { return }
        adopt(fresh, changed: changedKeys)
        let conflicts = changedKeys.intersection(userKeys)
        // While Done's save waits, that save finds the conflict itself (against what Done was pressed on) and says so.
        if !conflicts.isEmpty && !isSavingDone {
            let alert = AlertController(
                title: "Changed Elsewhere",
                message: "Another program changed this \(followed.noun)'s \(labels(of: conflicts)) while you edited it. "
                    + "Done saves what you typed here.",
                preferredStyle: .alert)
            alert.addAction(AlertAction(title: "OK", style: .cancel))
            present(alert)
        }
    }

    /// The fields' labels (a list by its section's title) in form order, joined ("Description, Address").
    func labels(of keys: Set<String>) -> String {
        sections.flatMap { section in
            section.listKey.map { keys.contains($0) ? [section.title ?? $0] : [] }
                ?? section.fields.filter { keys.contains($0.key) }.map(\.label)
        }.joined(separator: ", ")
    }

    /// Another program changed fields the user edited, after the form last
    /// showed them and before Done saved: nothing was written. The form now
    /// holds the stored values as its baseline, so Done again saves what
    /// the user typed, knowingly.
    public struct ChangedElsewhere: Error, CustomStringConvertible {
        /// The fields' labels, in form order ("Description, Address").
        public let labels: String
        /// What the object is called ("location").
        public let noun: String

        public var description: String {
            "another program changed this \(noun)'s \(labels) while you edited it"
        }
    }

    /// Call first inside the save's write transaction (no other program can
    /// write until it ends): throws ``ChangedElsewhere`` when a field the
    /// user edited holds another value in the store than the form last
    /// showed, a change not heard yet, which Done would otherwise overwrite
    /// unseen; ``DeletedElsewhere`` when the object is gone. The stored
    /// values become the form's baseline.
    ///
    /// ```swift
    /// try AppStore.save(context, at: url) { try form.requireNoChangeElsewhere(); write(form.changedValues) }
    /// ```
    public func requireNoChangeElsewhere() throws {
        guard let followed else { return }
        // Deleted while the save waited for the store: nothing is written to it.
        guard let object = followedObject() else { throw DeletedElsewhere() }
        // Against what the form showed when Done was pressed: a change heard while the save waited is still unseen by Done.
        var reference = followed
        if let shownAtDone { reference.baseline = shownAtDone }
        let (fresh, changed) = readValues(of: object, reference)
        let conflicts = changed.intersection(userKeys)
        guard !conflicts.isEmpty else { return }
        for key in conflicts { takeAsShown(key, from: fresh) }
        adopt(fresh, changed: changed)
        throw ChangedElsewhere(labels: labels(of: conflicts), noun: followed.noun)
    }

    /// The followed object's values as the form's fields hold them, and the
    /// keys whose value differs from the baseline (what the form last read).
    private func readValues(of object: ManagedObject, _ followed: FollowedObject) -> (Values, Set<String>) {
        let fresh = followed.read(object)
        return (fresh, fresh.keys(differingFrom: followed.baseline))
    }

    /// Takes values read from the object: the fields that are not the
    /// user's show them, they become the baseline, and the rows redraw.
    private func adopt(_ fresh: Values, changed: Set<String>) {
        for key in changed { refreshValue(key, from: fresh) }
        followed?.baseline = fresh
        tableView.reloadData()
        setNeedsDisplay()
    }

    /// The edited object is gone: back to the screen below the form, with an
    /// error that stays until dismissed. Nothing is written.
    func closeForGoneObject() {
        guard let followed else { return }
        self.followed = nil
        let noun = followed.noun
        guard let navigation = navigationController,
            let index = navigation.viewControllers.firstIndex(where: { $0 === self }), index > 0
        else {
            presentError(title: "\(noun.capitalized) Deleted", message: "Another program deleted this \(noun); nothing was saved.")
            return
        }
        // Say that changes were lost only when there were some.
        let lost = editedKeys.isEmpty ? "" : "; your changes were not saved"
        navigation.pop(to: navigation.viewControllers[index - 1])
        navigation.presentError(
            title: "\(noun.capitalized) Deleted",
            message: "Another program deleted this \(noun) while it was open here\(lost).")
    }
}
