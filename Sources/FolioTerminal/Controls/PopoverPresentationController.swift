import Foundation

/// UIKit's anchor for an action sheet shown as a popover on a large screen.
/// A terminal shows every action sheet at the bottom of the screen, so
/// ``AlertController/popoverPresentationController`` is always nil and the
/// anchoring lines UIKit code writes for iPad compile and do nothing.
///
/// ```swift
/// alert.popoverPresentationController?.sourceView = self.view
/// alert.popoverPresentationController?.sourceRect = CGRect(x: view.bounds.midX, y: view.bounds.midY, width: 1, height: 1)
/// ```
@MainActor
public final class PopoverPresentationController {
    /// The view the popover points at.
    public var sourceView: View?
    /// The rectangle in `sourceView` the popover points at.
    public var sourceRect = CGRect.zero
    /// The bar button the popover points at.
    public var barButtonItem: BarButtonItem?

    private init() {}
}

extension AlertController {
    /// Always nil: a terminal presents no popovers (see ``PopoverPresentationController``).
    ///
    /// ```swift
    /// alert.popoverPresentationController?.sourceView = self.view   // does nothing
    /// ```
    public var popoverPresentationController: PopoverPresentationController? { nil }
}
