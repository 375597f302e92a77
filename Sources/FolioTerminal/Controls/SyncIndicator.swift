import Observation

/// How a background sync is doing, shown at the right of the hint bar on
/// every screen: `✓ synced`, `● offline · 3 waiting`, `⚠ 1 conflict`. Set
/// ``state`` by hand, or let the indicator follow an observable model (a
/// replica's `SyncStatus`): it reads `source` again whenever a property it
/// read changes, and the hint bar redraws by itself.
///
/// Give it to the root screen (``ViewController/syncIndicator``): the
/// application draws the root screen's indicator. With ``details`` set,
/// `S` shows them (the conflicts, say) in an alert.
///
/// ```swift
/// let navigation = NavigationController(root: notes)
/// navigation.syncIndicator = SyncIndicator {
///     SyncIndicator.State(isOnline: status.isOnline, waiting: status.waitingChanges, conflicts: status.conflicts.count)
/// }
/// try await Application.run(navigation)   // the bar shows "● offline · 3 waiting" while offline
/// ```
@MainActor
public final class SyncIndicator {
    /// What the indicator shows.
    public struct State: Sendable, Equatable {
        /// Whether the server answered the last time the sync tried.
        public var isOnline: Bool
        /// Local changes not yet on the server.
        public var waiting: Int
        /// Changes the sync could not settle by itself.
        public var conflicts: Int
        /// Why the sync stopped, when the server refused a change (not a conflict, not being away).
        public var problem: String?

        /// A state; all parts default to a synced, online one.
        ///
        /// `SyncIndicator.State(isOnline: false, waiting: 3)`
        public init(isOnline: Bool = true, waiting: Int = 0, conflicts: Int = 0, problem: String? = nil) {
            self.isOnline = isOnline
            self.waiting = waiting
            self.conflicts = conflicts
            self.problem = problem
        }
    }

    /// What is shown now; setting it redraws the hint bar.
    ///
    /// `indicator.state.waiting += 1`
    public var state: State {
        didSet { if state != oldValue { application?.setNeedsDisplay() } }
    }

    /// What `S` shows in an alert: a title and lines (which objects and keys
    /// conflict, with both values); nil offers no key.
    ///
    /// `indicator.details = { ("Sync", status.conflicts.map(\.description)) }`
    public var details: (@MainActor () -> (title: String, lines: [String]))?

    /// The application drawing the indicator (set when it is drawn).
    weak var application: Application?
    private let source: (@MainActor () -> State)?

    /// An indicator showing `state` until it is set again.
    ///
    /// `let indicator = SyncIndicator(state: .init(isOnline: false, waiting: 2))`
    public init(state: State = State()) {
        self.state = state
        source = nil
    }

    /// An indicator that follows `source`: read now, and again after any
    /// observable property it read (an `@Observable` model's) changes.
    ///
    /// `let indicator = SyncIndicator { SyncIndicator.State(isOnline: model.isOnline, waiting: model.pending) }`
    public init(following source: @escaping @MainActor () -> State) {
        self.source = source
        state = State()
        follow()
    }

    private func follow() {
        guard let source else { return }
        state = withObservationTracking(source) { [weak self] in
            // Called as the change is about to be made: read again once it has been.
            Task { @MainActor in self?.follow() }
        }
    }

    /// The words in the hint bar: `✓ synced`, `● offline · 3 waiting`,
    /// `⚠ 1 conflict · 1 waiting`, `⚠ not pushed · 2 waiting`.
    ///
    /// `SyncIndicator(state: .init(isOnline: false, waiting: 3)).text   // "● offline · 3 waiting"`
    public var text: String {
        var parts: [String] = []
        if state.conflicts > 0 { parts.append(state.conflicts == 1 ? "1 conflict" : "\(state.conflicts) conflicts") }
        if state.problem != nil { parts.append("not pushed") }
        if !state.isOnline { parts.append("offline") }
        if state.waiting > 0 { parts.append("\(state.waiting) waiting") }
        let mark = needsAttention ? "⚠" : (parts.isEmpty ? "✓" : "●")
        return mark + " " + (parts.isEmpty ? "synced" : parts.joined(separator: " · "))
    }

    /// Whether something waits for a person (a conflict, a refused change), not only for the server.
    ///
    /// `SyncIndicator(state: .init(conflicts: 1)).needsAttention   // true`
    public var needsAttention: Bool { state.conflicts > 0 || state.problem != nil }
}
