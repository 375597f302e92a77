import Testing

/// Every end-to-end suite runs inside this one, one test at a time: each
/// starts real processes and tmux servers, and on a two-core machine
/// running them side by side would measure the machine, not the app.
@Suite(.serialized) enum EndToEnd {}
