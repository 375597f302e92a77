/// Undo and redo for one context, grouped per user action. Changes made
/// between ``beginGroup()`` and ``endGroup()`` (or inside
/// ``ObjectContext/undoGroup(_:)``) undo together; changes made outside an
/// explicit group form one group that closes at the next `undo()`, `save()`
/// or ``ObjectContext/processPendingChanges()``. Saving and rolling back
/// clear both stacks.
///
///     context.undoGroup { planet.name = "Pluto"; planet.position = 9 }
///     context.undo()   // both changes reverted
public final class UndoStack {
    enum Action {
        /// An attribute or to-one before the change.
        case slot(ManagedObject, PropertyDescription, ManagedSlot.Storage)
        /// A member added to a to-many (row ID).
        case memberAdded(ManagedObject, PropertyDescription, Int64)
        /// A member removed from a to-many, and the member it followed.
        case memberRemoved(ManagedObject, PropertyDescription, Int64, after: Int64)
        /// An ordered to-many's members before they were replaced.
        case members(ManagedObject, PropertyDescription, [Int64])
        case inserted(ManagedObject, Bool)
        case deleted(ManagedObject, Bool)
    }

    private var undoGroups: [[Action]] = []
    private var redoGroups: [[Action]] = []
    private var open: [Action]?
    private var depth = 0
    private var replaying: [Action]?

    /// An empty stack.
    ///
    ///     context.undoManager = UndoStack()
    public init() {}

    /// Whether ``ObjectContext/undo()`` has something to undo.
    public var canUndo: Bool { !(open ?? []).isEmpty || !undoGroups.isEmpty }
    /// Whether ``ObjectContext/redo()`` has something to redo.
    public var canRedo: Bool { !redoGroups.isEmpty }

    /// Starts an explicit group; groups nest, the outermost one counts.
    ///
    ///     stack.beginGroup(); ...; stack.endGroup()
    public func beginGroup() {
        if depth == 0 { closeGroup() }
        depth += 1
    }

    /// Ends an explicit group.
    public func endGroup() {
        precondition(depth > 0, "endGroup() without beginGroup()")
        depth -= 1
        if depth == 0 { closeGroup() }
    }

    /// Ends the group changes outside an explicit group are collecting, if any.
    func closeImplicitGroup() {
        if depth == 0 { closeGroup() }
    }

    func closeGroup() {
        if let g = open, !g.isEmpty { undoGroups.append(g) }
        open = nil
    }

    func removeAll() {
        undoGroups = []
        redoGroups = []
        open = nil
    }

    func record(_ action: Action, in context: ObjectContext) {
        if replaying != nil { replaying!.append(action); return }
        if open == nil { open = [] }
        open!.append(action)
        redoGroups = []
    }

    func undo(in context: ObjectContext) {
        if depth == 0 { closeGroup() }
        guard let group = undoGroups.popLast() else { return }
        if let g = replay(group, in: context) { redoGroups.append(g) }
    }

    func redo(in context: ObjectContext) {
        guard let group = redoGroups.popLast() else { return }
        let saved = redoGroups
        if let g = replay(group, in: context) { undoGroups.append(g) }
        redoGroups = saved
    }

    /// Applies a group's actions in reverse and returns the actions that undo them.
    private func replay(_ group: [Action], in context: ObjectContext) -> [Action]? {
        replaying = []
        for action in group.reversed() {
            switch action {
            case let .slot(object, p, old): context.setPrimitive(object, p, old)
            case let .memberAdded(object, p, member): context.removeMember(member, from: object, p)
            case let .memberRemoved(object, p, member, previous): context.insertMember(member, into: object, p, after: previous)
            case let .members(object, p, old): context.replaceMembers(of: object, p, with: old)
            case let .inserted(object, flag): context.setInserted(object, !flag)
            case let .deleted(object, flag): context.setDeleted(object, flag)
            }
        }
        let inverse = replaying!
        replaying = nil
        return inverse.isEmpty ? nil : inverse
    }
}

extension ObjectContext {
    /// Reverts the last group of changes.
    ///
    ///     context.undo()
    public func undo() { undoManager?.undo(in: self) }
    /// Re-applies the last undone group.
    ///
    ///     context.redo()
    public func redo() { undoManager?.redo(in: self) }

    /// Runs `body` as one undo group.
    ///
    ///     context.undoGroup { zoo.name = "Lowry Park Zoo"; zoo.location = "Tampa, FL" }
    public func undoGroup<T>(_ body: () throws -> T) rethrows -> T {
        undoManager?.beginGroup()
        defer { undoManager?.endGroup() }
        return try body()
    }

    func setInserted(_ object: ManagedObject, _ inserted: Bool) {
        object.isInsertedFlag = inserted
        noteChange(object)
        if inserted {
            register(object)
            touch(object)
        } else {
            object.isDeletedFlag = false
            untouch(object)
        }
        undoManager?.record(.inserted(object, inserted), in: self)
    }

    func setDeleted(_ object: ManagedObject, _ wasDeleted: Bool) {
        // `wasDeleted` is the value before the recorded change; undo restores it.
        object.isDeletedFlag = wasDeleted
        touch(object)
        noteChange(object)
        undoManager?.record(.deleted(object, !wasDeleted), in: self)
    }
}
