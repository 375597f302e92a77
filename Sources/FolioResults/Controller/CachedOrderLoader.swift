import FolioStore

/// A relaunch's cached order while the table is drawn from it, and its
/// load into an engine: off the main actor (``loadApart(then:)``), or at
/// once (``loadNow()``) when something needs the whole order before that
/// load ends. Either load ends the showing; a later ``show(_:)`` drops an
/// earlier order, and with it a load still under way.
///
/// ```swift
/// let loader = CachedOrderLoader()
/// loader.show(ResultsCache.open(name: "Animals", plan: plan, context: context))
/// loader.loadApart { order, loaded in results.adopt(loaded?.engine) }
/// ```
@MainActor final class CachedOrderLoader {
    /// The order shown, until it is loaded or replaced.
    private(set) var order: CachedOrder?
    /// Whether the last order loaded was loaded off the main actor (nil before one was).
    private(set) var loadedApart: Bool?

    init() {}

    /// Shows `order` (nil: none) in place of the order shown before.
    func show(_ order: CachedOrder?) { self.order = order }

    /// Loads the order shown off the main actor; when the load ends and
    /// the order is still shown, it stops being shown and `finish` gets it
    /// with its load (nil: the keys were damaged).
    func loadApart(then finish: @escaping @MainActor (CachedOrder, LoadedOrder?) -> Void) {
        guard let order else { return }
        let rows = order.rows
        Task { @MainActor [weak self, weak order] in
            let loaded = await Task.detached(priority: .medium) { rows.load() }.value
            guard let self, let order, self.order === order else { return }
            end(apart: true)
            finish(order, loaded)
        }
    }

    /// Loads the order shown now, on the main actor, and stops showing it;
    /// nil when none is shown. A load off the main actor is then dropped.
    /// - Complexity: O(n) for n rows.
    func loadNow() -> (order: CachedOrder, loaded: LoadedOrder?)? {
        guard let order else { return nil }
        let loaded = order.rows.load()
        end(apart: false)
        return (order, loaded)
    }

    private func end(apart: Bool) {
        order = nil
        loadedApart = apart
    }
}
