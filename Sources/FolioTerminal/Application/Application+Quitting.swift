extension Application {
    /// What the hint bar says while a quit waits for a save.
    package static let quitWaitStatus = "saving… quits when saved · Ctrl-C quits now"

    /// Quits, or, while work the user started has not ended (a save waiting
    /// for another program's write lock), quits once it ends: the screen
    /// already shows that change, so leaving must not cut it off. `now`
    /// (Ctrl-C pressed while a quit waits) quits at once.
    func requestQuit(now: Bool) {
        if !now, !quitsWhenFinished, hasUnfinishedWork?() == true {
            quitsWhenFinished = true
            status = Self.quitWaitStatus
            return
        }
        quit()
    }

    /// Unfinished work has ended: a waiting quit goes ahead, unless the
    /// work ended with an alert (a refused save), which the user sees first.
    ///
    /// ```swift
    /// if queues.isEmpty { application?.unfinishedWorkEnded() }
    /// ```
    package func unfinishedWorkEnded() {
        guard quitsWhenFinished else { return }
        quitsWhenFinished = false
        if status == Self.quitWaitStatus { status = nil }
        if presentedAlert == nil { quit() }
    }
}
