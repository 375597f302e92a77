extension SearchSession {
    /// Sets aside `engine`'s rows when a keystroke replaces them, leaving it
    /// empty: as the engine of every row when they are every row (`everyRow`),
    /// else as the rows of the filters typed before the keystroke, as long as
    /// the engines set aside hold no more rows than there are. Any other is
    /// freed on another thread.
    ///
    /// ```swift
    /// let rebuilt = search.results(outcome, fixedSection: nil)
    /// search.setAside(engine, everyRow: showedEveryRow)
    /// engine.adopt(rebuilt)
    /// ```
    /// - Complexity: O(1), and O(k) for the k engines set aside.
    mutating func setAside(_ engine: Engine, everyRow: Bool) {
        if everyRow {
            setAside(everyRow: engine)
            return
        }
        guard let typedBefore, !earlier.contains(where: { $0.typed == typedBefore }) else {
            engine.emptyApart()
            return
        }
        let kept = Engine(fixedSection: engine.fixedSection)
        kept.adopt(engine)
        earlier.insert((typedBefore, kept), at: 0)
        var total = 0
        for k in earlier.indices {
            total += earlier[k].engine.count
            if total > count {
                for (_, engine) in earlier[k...] { engine.emptyApart() }
                earlier.removeSubrange(k...)
                break
            }
        }
    }

    /// Sets `engine`'s rows aside as the engine of every row (they must be
    /// every row), leaving it empty, so that erasing the filters takes them
    /// back; when one was set aside before, this one is freed apart.
    mutating func setAside(everyRow engine: Engine) {
        guard everyRow == nil else {
            engine.emptyApart()
            return
        }
        let every = Engine(fixedSection: engine.fixedSection)
        every.adopt(engine)
        everyRow = every
    }
}
