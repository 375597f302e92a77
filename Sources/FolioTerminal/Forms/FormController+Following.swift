import Foundation

extension FormController {
    /// What a form edits when it follows something others may change, and how to read it.
    struct FollowedSource {
        /// What the source is called in messages ("location").
        let noun: String
        /// The source's values as the form's fields and lists hold them, or nil when it is gone.
        let read: @MainActor () -> Values?
        /// The values last read from the source.
        var baseline: Values
        /// What the follower keeps alive with the form (an observation).
        var attachment: AnyObject?
    }

    /// Makes the form follow what it edits, read by `read`: the current
    /// values, or nil once it is gone. Call ``sourceMayHaveChanged()``
    /// whenever it may have changed (from a change notification); then the
    /// fields the user has not touched show the new values, a change to a
    /// field the user edited is pointed out (Done keeps the user's value),
    /// and when it is gone the form says so and closes without calling
    /// ``onDone``. FolioAdapters' `follow(_:in:noun:values:lists:)` does
    /// this for a managed object.
    ///
    /// ```swift
    /// form.follow(noun: "note") { notes[id].map { FormController.Values(texts: ["title": $0.title]) } }
    /// notes.onChange = { form.sourceMayHaveChanged() }
    /// ```
    ///
    /// The values read now become the form's baseline (what it last read).
    public func follow(noun: String, read: @escaping @MainActor () -> Values?) {
        followed = FollowedSource(noun: noun, read: read, baseline: read() ?? shown, attachment: nil)
    }

    /// Whether the form follows a source (``follow(noun:read:)``).
    ///
    /// ```swift
    /// if form.isFollowing { form.sourceMayHaveChanged() }
    /// ```
    public var isFollowing: Bool { followed != nil }

    /// What the follower keeps alive as long as the form follows its
    /// source (an observation of the store).
    package var followedAttachment: AnyObject? {
        get { followed?.attachment }
        set { followed?.attachment = newValue }
    }

    /// What the followed source is called ("location"), if the form follows one.
    package var followedNoun: String? { followed?.noun }

    /// Whether the form follows a source that no longer exists.
    package func followedSourceIsGone() -> Bool {
        guard let followed else { return false }
        return followed.read() == nil
    }

    /// Reads the followed source again: when it is gone, the form closes
    /// (nothing is written); when it changed, the fields the user has not
    /// touched take the new values and a change to one the user edited is
    /// pointed out in an alert. Call it whenever the source may have
    /// changed; a call that finds nothing new does nothing.
    ///
    /// ```swift
    /// token = store.observe { form.sourceMayHaveChanged() }
    /// ```
    public func sourceMayHaveChanged() {
        guard let followed else { return }
        guard let fresh = followed.read() else { return closeForGoneSource() }
        let changedKeys = fresh.keys(differingFrom: followed.baseline)
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
    ///
    /// ```swift
    /// catch let conflict as FormController.ChangedElsewhere { form.presentError(title: "Changed Elsewhere", message: "\(conflict)") }
    /// ```
    public struct ChangedElsewhere: Error, CustomStringConvertible {
        /// The fields' labels, in form order ("Description, Address").
        public let labels: String
        /// What the source is called ("location").
        public let noun: String

        /// "another program changed this location's Address while you edited it".
        ///
        /// ```swift
        /// print(conflict.description)
        /// ```
        public var description: String {
            "another program changed this \(noun)'s \(labels) while you edited it"
        }
    }

    /// Call first inside the save's write transaction (no other program can
    /// write until it ends): throws ``ChangedElsewhere`` when a field the
    /// user edited holds another value in the source than the form last
    /// showed, a change not heard yet, which Done would otherwise overwrite
    /// unseen; ``DeletedElsewhere`` when the source is gone. The source's
    /// values become the form's baseline. A form that follows nothing
    /// returns at once.
    ///
    /// ```swift
    /// form.save(in: context, { try form.requireNoChangeElsewhere(); write(form.changedValues) }) { form.close() }
    /// ```
    public func requireNoChangeElsewhere() throws {
        guard let followed else { return }
        // Gone while the save waited for the store: nothing is written to it.
        guard let fresh = followed.read() else { throw DeletedElsewhere() }
        // Against what the form showed when Done was pressed: a change heard while the save waited is still unseen by Done.
        let changed = fresh.keys(differingFrom: shownAtDone ?? followed.baseline)
        let conflicts = changed.intersection(userKeys)
        guard !conflicts.isEmpty else { return }
        for key in conflicts { takeAsShown(key, from: fresh) }
        adopt(fresh, changed: changed)
        throw ChangedElsewhere(labels: labels(of: conflicts), noun: followed.noun)
    }

    /// Takes values read from the source: the fields that are not the
    /// user's show them, they become the baseline, and the rows redraw.
    private func adopt(_ fresh: Values, changed: Set<String>) {
        for key in changed { refreshValue(key, from: fresh) }
        followed?.baseline = fresh
        tableView.reloadData()
        setNeedsDisplay()
    }

    /// The edited source is gone: back to the screen below the form, with an
    /// error that stays until dismissed. Nothing is written.
    package func closeForGoneSource() {
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
