/// How long a reader may stay silent before other containers stop keeping
/// history for it, and how often a live reader says it is alive.
///
///     container.setReaderSilenceLimit(1.5)   // tests: a short limit for this container
package enum HistorySettings {
    /// Readers whose last acknowledgement is older than this (seconds) are
    /// dropped (crashed, or stopped with Ctrl-Z); their unread history may
    /// then be trimmed, and they reload when they come back.
    package static let defaultSilenceLimit: Double = 60

    /// How often a reader acknowledges when nothing else makes it: well
    /// inside `limit`, and at least every 5 s.
    static func heartbeat(forSilenceLimit limit: Double) -> Double { min(5, limit / 4) }
}
