import Foundation

/// Waits on the main actor, letting merges arrive, until `condition` holds
/// or this wait has had `seconds` of the main actor's time.
///
/// Change sets reach the view context as main-actor jobs. When other work
/// holds the main actor (other tests' steps, on a loaded machine for tens
/// of seconds), those jobs queue behind it, and a wall-clock deadline would
/// run out while they wait, then judge before they ran. So each turn of
/// this loop counts at most 50 ms against the budget, however long the main
/// actor was away. The condition may await (a query run by a program, on a
/// thread of its own); its own time is the machine's, not the wait's, and
/// does not count.
///
///     #expect(await waitUntil { heard.count == 2 })
///     #expect(await waitUntil(30) { (try? await cluster.runSQL(listeners)) == "1" })
@MainActor
public func waitUntil(_ seconds: Double = 10, _ condition: () async -> Bool) async -> Bool {
    var budget = seconds
    while await !condition() {
        if budget <= 0 { return false }
        let start = Date()
        try? await Task.sleep(for: .milliseconds(5))
        budget -= min(Date().timeIntervalSince(start), 0.05)
    }
    return true
}
