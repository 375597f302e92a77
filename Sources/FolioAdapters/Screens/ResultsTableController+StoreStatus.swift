import Dispatch
import FolioStore
import FolioTerminal

extension ResultsTableController {
    /// The hint bar's status while the store's server cannot be reached:
    /// the screen keeps drawing what it has and taking keys, saves fail
    /// with an alert, and the status goes when the server is back (what
    /// others saved meanwhile arrives by itself).
    static var offlineStatus: String { "offline" }

    /// Watches a server store's reachability (a file is always reachable,
    /// so a file store starts no timer) and shows it in the hint bar.
    func watchStoreStatus() {
        guard statusTimer == nil, results.managedObjectContext.isOnServer else { return }
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + .milliseconds(250), repeating: .milliseconds(250), leeway: .milliseconds(50))
        // The timer holds itself through its handler until the screen is gone, then cancels.
        // A dispatch source's handler: the compiler cannot see that the main queue runs it.
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return timer.cancel() }
                self.showStoreStatus()
            }
        }
        statusTimer = timer
        timer.resume()
    }

    func showStoreStatus() {
        guard let application else { return }
        let reachable = results.managedObjectContext.isStoreReachable
        if !reachable {
            application.status = Self.offlineStatus
        } else if application.status == Self.offlineStatus {
            application.status = nil
        }
    }
}
