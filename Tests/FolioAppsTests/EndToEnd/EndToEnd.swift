import FolioTestSupport
import Testing

/// Every end-to-end suite runs inside this one, one test at a time: each
/// starts real processes and tmux servers, and on a two-core machine
/// running them side by side would measure the machine, not the app.
/// They need the `folio` binary, which `scripts/setup` builds (`swift test`
/// alone does not); without it they are skipped, except under CI.
@Suite(.serialized, .enabled(if: AppProcess.folioBinaryIsReady, "folio is not built or is stale: run scripts/setup"))
enum EndToEnd {}
