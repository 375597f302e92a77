import Foundation

/// Waits on the main actor, letting merges arrive, until `condition` holds
/// or this wait has had `seconds` of the main actor's time.
///
/// Change sets reach the view context as main-actor jobs. When other work
/// holds the main actor (other tests' long synchronous bodies, on a loaded
/// machine for tens of seconds), those jobs queue behind it, and a
/// wall-clock deadline would run out while they wait, then judge before
/// they ran. So each turn of this loop counts at most 50 ms against the
/// budget, however long the main actor was away.
///
///     #expect(await waitUntil { heard.count == 2 })
@MainActor
public func waitUntil(_ seconds: Double = 10, _ condition: () -> Bool) async -> Bool {
    var budget = seconds
    while !condition() {
        if budget <= 0 { return false }
        let start = Date()
        try? await Task.sleep(for: .milliseconds(5))
        budget -= min(Date().timeIntervalSince(start), 0.05)
    }
    return true
}

/// ``waitUntil(_:_:)`` for a condition that awaits (a query run by a
/// program, say). The condition's own time counts as a turn does, at most
/// 50 ms: on a loaded machine a program takes seconds to start, and that
/// is the machine's time, not the wait's.
///
///     #expect(await waitUntil(30) { (try? await cluster.runSQL(listeners)) == "1" })
@MainActor
public func waitUntil(_ seconds: Double = 10, _ condition: () async -> Bool) async -> Bool {
    var budget = seconds
    while true {
        let asked = Date()
        if await condition() { return true }
        budget -= min(Date().timeIntervalSince(asked), 0.05)
        if budget <= 0 { return false }
        let start = Date()
        try? await Task.sleep(for: .milliseconds(5))
        budget -= min(Date().timeIntervalSince(start), 0.05)
    }
}
