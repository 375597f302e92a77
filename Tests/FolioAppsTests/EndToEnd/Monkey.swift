import FolioTestSupport
import Foundation
import Testing

/// A randomised user on the release binary: random keys (typing, swipes,
/// deletes, edit mode, search, sections, help), resizes to random sizes and
/// another process adding, changing and deleting, with the kit's invariants
/// checked after every action:
/// - the highlighted row is drawn on screen (its line carries the marker);
/// - revealed actions (a swipe, a delete confirmation) belong to the highlighted row;
/// - an object that left the store was deleted by the other process, or was
///   the one the screen showed highlighted (or whose actions were revealed)
///   before the key that deleted it; an object whose listed fields changed
///   (its position aside) was changed by the other process, or was the one
///   highlighted when its editor was opened — checked after every key that
///   wrote to the store (SQLite's `data_version` tells), against the state
///   the screen showed before that key;
/// - on the list, once the app has settled, the screen shows what `list`
///   prints, row by row: headers and rows in order on consecutive lines, the
///   slice that the scroll offset shows, each line with its row's text (with
///   a filter, the rows shown are `list`'s in its order);
/// - the app never ends by itself, and leaves the terminal as it found it.
///
/// The seed is printed; `FOLIO_SEED` replays a run, `FOLIO_MONKEY_ACTIONS`
/// sets the actions per app.
struct Monkey {
    /// What one app's monkey needs: its entity, keys and the other process's changes.
    struct Plan {
        let app: String
        let entity: String
        let ready: String
        /// Keys that reach the app's list from its root screen (Locations' tab).
        var toList: [String] = []
        /// One change by another process, given a random number and the objects now listed.
        let change: (inout ResultsRandom, [(name: String, rows: [[String: Any]])]) -> [String]
    }

    static let keys: [(String, Int)] = [
        ("j", 12), ("k", 8), ("Down", 4), ("Up", 3), ("PgDn", 2), ("PgUp", 2), ("g", 1), ("G", 1),
        ("Enter", 8), ("Escape", 8), ("Left", 4), ("h", 2), ("Right", 2), ("l", 1), ("d", 5), ("Delete", 1),
        ("e", 4), ("+", 2), ("K", 2), ("J", 2), ("S-Up", 1), ("/", 3), ("[", 2), ("]", 2), ("Tab", 2),
        ("1", 1), ("2", 1), ("?", 1), ("x", 3), ("a", 2), ("BSpace", 2), ("Space", 1),
    ]
    static let sizes: [(Int, Int)] = [(40, 12), (60, 20), (80, 24), (100, 30), (120, 40)]

    let plan: Plan
    let folio: FolioBinary
    var random: ResultsRandom
    let seed: UInt64
    let actions: Int
    private var history: [String] = []
    /// The title of the app's list screen, where the screen must show `list`.
    private var list: String?
    /// How many frames were compared with `list` row by row, and how many keys wrote.
    private var compared = 0, writes = 0
    /// The objects whose editors are open, by tab ("" without a tab bar):
    /// another tab hides an editor but does not close it, and Done saves
    /// once its tab is back.
    private var opened: [String: Set<String>] = [:]

    init(_ plan: Plan, salt: UInt64) throws {
        self.plan = plan
        folio = try FolioBinary(plan.app)
        seed = StoreSplitMix64.seedFromEnvironment()
        print("monkey \(plan.app): seed \(seed) (replay with FOLIO_SEED=\(seed))")
        random = ResultsRandom(seed: seed &+ salt)
        actions = Int(ProcessInfo.processInfo.environment["FOLIO_MONKEY_ACTIONS"] ?? "") ?? 1300
    }

    /// Runs the actions; records the first broken invariant with the seed, the last keys and the screen.
    mutating func run() throws {
        let app = try folio.launch(waitingFor: plan.ready)
        defer { app.close() }
        for key in plan.toList { try app.press(key) }
        list = app.state["screen"]
        let watch = try StoreWatch(folio.store)
        var known = try MonkeyListing(folio, entity: plan.entity)
        for step in 0..<actions {
            let roll = Int.random(in: 0..<100, using: &random)
            if roll < 2 {
                // Another size: the harness waits for the frame at the new one.
                let others = Self.sizes.filter { "\($0.0)" != app.state["columns"] || "\($0.1)" != app.state["rows"] }
                let size = others.randomElement(using: &random)!
                history.append("resize \(size.0)x\(size.1)")
                try app.resize(columns: size.0, rows: size.1)
                do {
                    try app.waitUntil("a drawn screen", timeout: 10) { !$0.text.allSatisfy(\.isWhitespace) }
                } catch {
                    _ = fail("the screen stayed blank after a resize", app, step)
                    return
                }
            } else if roll < 4 {
                let arguments = plan.change(&random, try folio.sections())
                history.append("other: \(arguments.joined(separator: " "))")
                _ = try AppProcess.run(folio.binary, [plan.app] + arguments + ["--store", folio.store])
                known = try MonkeyListing(folio, entity: plan.entity)
                _ = watch.changed()
            } else {
                let key = pick()
                history.append(key)
                let before = app.state
                try app.press(key)
                // A save waits for the store off the main actor: its outcome is part of this key.
                try app.waitUntil("the key's saves to land") { $0.state["status"] != "saving…" && $0.state["status"] != "opening…" }
                if before["depth"] == "1", app.state["depth"] == "2", before["tab"] == app.state["tab"],
                    let id = before["highlightID"]
                {
                    opened[before["tab"] ?? "", default: []].insert(id)
                }
                if watch.changed() {
                    writes += 1
                    guard try explained(app, before: before, known: known, now: &known, step: step) else { return }
                }
                closeEditors(app)
            }
            guard check(app, step: step), matchesList(app, known, step: step) else { return }
            if step % 250 == 249 || step == actions - 1 {
                guard try backOnTheList(app, known: &known, watch: watch, step: step) else { return }
            }
        }
        try quit(app)
        print("monkey \(plan.app): \(actions) actions, \(compared) frames compared with list row by row, \(writes) keys that wrote checked")
    }

    private mutating func pick() -> String {
        let total = Self.keys.reduce(0) { $0 + $1.1 }
        var roll = Int.random(in: 0..<total, using: &random)
        for (key, weight) in Self.keys {
            if roll < weight { return key }
            roll -= weight
        }
        return "j"
    }

    /// The invariants every frame keeps.
    private func check(_ app: PtyApp, step: Int) -> Bool {
        let state = app.state
        if app.hasExited { return fail("the app ended", app, step) }
        guard state["alert"] == nil, state["help"] == "0" else { return true }
        if let highlight = state["highlight"] {
            guard let line = Int(state["highlightLine"] ?? ""), line < app.lines.count, app.lines[line].hasPrefix("▸") else {
                return fail("the highlighted row \(highlight) is not on screen", app, step)
            }
        }
        for revealed in [state["swiped"], state["confirming"]].compactMap({ $0 }) where revealed != state["highlight"] {
            return fail("actions revealed on \(revealed), the highlight is on \(state["highlight"] ?? "none")", app, step)
        }
        return true
    }

    /// Whether every object that left the store since `known` is the one the
    /// screen showed highlighted (or revealed) in `before` or whose editor is
    /// open, and every one that changed is one of those; updates `now`.
    private mutating func explained(
        _ app: PtyApp, before: [String: String], known: MonkeyListing,
        now: inout MonkeyListing, step: Int
    ) throws -> Bool {
        let current = try MonkeyListing(folio, entity: plan.entity)
        let lost = Set(known.fields.keys).subtracting(current.fields.keys)
        let changed = Set(known.fields.keys.filter { current.fields[$0] != nil && current.fields[$0] != known.fields[$0] })
        let shown = Set([before["highlightID"], before["revealedID"]].compactMap { $0 })
        // Only the editors of the tab the key went to can have saved.
        let tab = before["tab"] ?? "", open = opened[tab] ?? []
        now = current
        guard lost.isSubset(of: shown.union(open)) else {
            return fail(
                "\(lost.sorted()) left the store; the screen showed \(shown.sorted()) highlighted, editors open on \(open.sorted())", app,
                step)
        }
        guard changed.isSubset(of: shown.union(open)) else {
            let what = changed.subtracting(shown.union(open)).sorted().map {
                "\($0): \(known.fields[$0] ?? "") → \(current.fields[$0] ?? "")"
            }
            return fail(
                "\(what.joined(separator: "; ")) changed; the screen showed \(shown.sorted()) highlighted, editors open on \(open.sorted())",
                app, step)
        }
        if app.state["depth"] != "1" {
            // An object made while an editor is open (BuildGuide's +) is that editor's.
            opened[tab, default: []].formUnion(Set(current.fields.keys).subtracting(known.fields.keys))
        }
        return true
    }

    /// On the list, with nothing over it: the screen shows `known` row by row
    /// once the app has settled (a change by the other process may still be
    /// on its way, so a difference is waited out before it counts).
    private mutating func matchesList(_ app: PtyApp, _ known: MonkeyListing, step: Int) -> Bool {
        let state = app.state
        guard state["screen"] == list, state["depth"] == "1", state["alert"] == nil, state["help"] == "0",
            state["editingText"] == "0", state["drawn"] != nil
        else { return true }
        compared += 1
        guard known.mismatch(app) != nil else { return true }
        do {
            try app.waitUntil("the screen to show list", timeout: 10) { known.mismatch($0) == nil }
            return true
        } catch {
            let drawn = MonkeyListing.drawn(app.state)
            let rows = app.lines.enumerated().filter { line in drawn.contains { $0.line == line.offset } }.map(\.element)
            return fail(
                """
                the screen is not list's: \(known.mismatch(app) ?? "")
                list, from the screen's first item:
                \(known.text(from: drawn.first?.name, count: drawn.count))
                the screen's items:
                \(rows.joined(separator: "\n"))
                """, app, step)
        }
    }

    /// Back to the list, no filter, nothing open: the table has `list`'s rows.
    private mutating func backOnTheList(_ app: PtyApp, known: inout MonkeyListing, watch: StoreWatch, step: Int) throws -> Bool {
        for _ in 0..<12 {
            let state = app.state
            let atList =
                state["alert"] == nil && state["help"] == "0" && state["editingText"] == "0"
                && state["depth"] == "1" && (state["search"] ?? "") == "" && state["swiped"] == nil && state["confirming"] == nil
            if atList && state["searching"] != nil { break }
            let before = state
            if atList, let key = plan.toList.last { try app.press(key) } else { try app.press("Escape") }
            if watch.changed(), !(try explained(app, before: before, known: known, now: &known, step: step)) { return false }
            closeEditors(app)
        }
        history.append("back on the list")
        let count = known.fields.count
        do {
            try app.waitUntil("the table to hold list's \(count) rows") { $0.state["rowCount"] == "\(count)" }
        } catch {
            return fail("the table does not hold list's \(count) rows: \(error)", app, step)
        }
        if let id = app.state["highlightID"], known.fields[id] == nil {
            return fail("the highlight is on \(id), which is not in the store", app, step)
        }
        return matchesList(app, known, step: step)
    }

    /// The tab shown is back at its root: no editor is open in it.
    private mutating func closeEditors(_ app: PtyApp) {
        if app.state["depth"] == "1" { opened[app.state["tab"] ?? ""] = [] }
    }

    /// q from the list ends the app with the terminal restored.
    private func quit(_ app: PtyApp) throws {
        app.send(Array("q".utf8))
        let end = try app.waitForExit()
        #expect(end.code == 0, "seed \(seed): q ended the app with \(end)")
        let modes = app.terminal.modes()
        #expect(
            modes.c_lflag == app.initialModes.c_lflag && modes.c_iflag == app.initialModes.c_iflag,
            "seed \(seed): the terminal's modes were not restored")
    }

    private func fail(_ what: String, _ app: PtyApp, _ step: Int) -> Bool {
        let message = """
            monkey \(plan.app), seed \(seed) (FOLIO_SEED), action \(step): \(what)
            last keys: \(history.suffix(25).joined(separator: " "))
            state: \(app.state.sorted { $0.key < $1.key })
            screen:
            \(app.text)
            """
        print(message)
        Issue.record(Comment(rawValue: message))
        return false
    }
}
