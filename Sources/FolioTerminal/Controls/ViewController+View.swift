import Foundation

/// A screen's rectangle as UIKit code reads it (`view.bounds`), in
/// character cells. A terminal screen is drawn by its controller, not built
/// from views, so this holds no subviews; it lets UIKit code that measures
/// its view, such as an action sheet's popover anchor, compile and run.
///
/// ```swift
/// let middle = CGPoint(x: view.bounds.midX, y: view.bounds.midY)
/// ```
public struct View: Sendable, Equatable {
    /// The rectangle in the screen's coordinates.
    public var frame: CGRect
    /// The same size at the origin.
    public var bounds: CGRect { CGRect(origin: .zero, size: frame.size) }
}

extension ViewController {
    /// The rectangle this screen was last drawn into, as a ``View``.
    ///
    /// ```swift
    /// alert.popoverPresentationController?.sourceView = self.view
    /// ```
    public var view: View {
        View(frame: CGRect(x: frame.x, y: frame.y, width: frame.width, height: frame.height))
    }
}
