import Foundation

/// Whether a controller's delegate hears anything. Every requirement of
/// ``FetchedResultsControllerDelegate`` has a default, so a method whose
/// signature misses the protocol's (the controller typed as
/// `FetchedResultsController<Animal>`, the object as `Animal`) compiles and
/// is never called. The defaults of the per-change calls count themselves
/// here; a delegate for which every call of its first batch reached a
/// default implements none of them, and the controller names it once.
struct DelegateHearing {
    /// The per-change calls of the batch being reported, and how many reached a default.
    var made = 0
    var defaulted = 0
    /// The first batch since the delegate was set has been judged.
    var judged = false
    /// Where the controller names a delegate that hears nothing; nil: standard error in debug builds.
    var handler: ((String) -> Void)?
}

extension AnyFetchedResultsController {
    /// Called by the defaults of the per-change delegate methods.
    package func noteDefaultDelegateCall() {
        delegateHearing.defaulted += 1
    }

    /// Replaces standard error as where a delegate that hears nothing is named (for tests and tools).
    ///
    /// ```swift
    /// controller.unheardDelegateHandler = { message in log.append(message) }
    /// ```
    package var unheardDelegateHandler: ((String) -> Void)? {
        get { delegateHearing.handler }
        set { delegateHearing.handler = newValue }
    }

    /// Starts counting a batch's per-change calls, for the first batch a delegate hears.
    func beginHearing(calls: Int) -> Bool {
        guard !delegateHearing.judged else { return false }
        delegateHearing.made = calls
        delegateHearing.defaulted = 0
        return true
    }

    /// Names `delegate` when every per-change call of the batch reached a default.
    func endHearing(_ delegate: any FetchedResultsControllerDelegate) {
        delegateHearing.judged = true
        guard delegateHearing.defaulted == delegateHearing.made else { return }
        let message =
            "folio: \(String(reflecting: type(of: delegate))) is a fetched results controller's delegate "
            + "but implements none of FetchedResultsControllerDelegate's change methods, so it hears no change; "
            + "check their signatures: the controller is an AnyFetchedResultsController, the object Any"
        if let handler = delegateHearing.handler {
            handler(message)
        } else {
            #if DEBUG
                FileHandle.standardError.write(Data((message + "\n").utf8))
            #endif
        }
    }
}
