/// Keeps an observer registered; `cancel()` (or releasing the token) removes it.
///
///     let token = context.observeChanges { print($0) }
///     token.cancel()
public final class ObservationToken {
    private var onCancel: (() -> Void)?

    init(_ onCancel: @escaping () -> Void) { self.onCancel = onCancel }

    deinit { cancel() }

    /// Stops the observation. Calling it again does nothing.
    public func cancel() {
        onCancel?()
        onCancel = nil
    }
}
