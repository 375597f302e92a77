import Foundation

/// The bar an import draws on standard error while it works, only when
/// standard error is a terminal: piped or captured output gets no bar and
/// no stray control characters. It redraws only when the percentage
/// changes, and erases itself at the end.
///
/// ```swift
/// let progress = ImportProgress(total: records.count, enabled: ImportProgress.terminalAttached(console))
/// for (i, record) in records.enumerated() { ...; progress.advance(to: i + 1) }
/// progress.finish()
/// ```
package final class ImportProgress {
    private let total: Int
    private let enabled: Bool
    private var shownPercent = -1
    private var saving = false
    private var finished = false

    /// A bar over `total` rows, drawn only when `enabled`.
    package init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled && total > 0
    }

    /// Whether a bar belongs on the console's standard error: a terminal, not a pipe, a file or a test.
    @MainActor
    package static func terminalAttached(_ console: Console) -> Bool {
        !console.isCapturing && isatty(STDERR_FILENO) == 1
    }

    /// `done` of the rows are checked.
    package func advance(to done: Int) {
        guard enabled, !finished else { return }
        let percent = min(100, done * 100 / total)
        guard percent != shownPercent else { return }
        shownPercent = percent
        draw(
            "[\(String(repeating: "#", count: percent / 5))\(String(repeating: "-", count: 20 - percent / 5))] \(percent)% of \(total) rows"
        )
    }

    /// The rows are checked; the one transaction is being written.
    package func writing() {
        guard enabled, !saving, !finished else { return }
        saving = true
        draw("[\(String(repeating: "#", count: 20))] saving \(total) rows in one transaction…")
    }

    /// Erases the bar (once; nothing more is drawn after).
    package func finish() {
        guard enabled, shownPercent >= 0 || saving, !finished else { return }
        finished = true
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    private func draw(_ text: String) {
        FileHandle.standardError.write(Data("\r\u{1B}[KImporting \(text)".utf8))
    }
}
