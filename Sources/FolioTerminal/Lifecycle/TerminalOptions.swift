/// What the terminal may be asked to do, from the environment and arguments.
///
/// `NO_COLOR` (any value) and `TERM=dumb` turn colour off; the highlighted
/// row, focused buttons and destructive actions stay visible through reverse
/// video and text markers. `--no-mouse` leaves mouse reporting off so that the
/// terminal's own text selection works.
/// ```swift
/// let options = TerminalOptions(environment: ["NO_COLOR": "1"], arguments: ["--no-mouse"])
/// options.colors // false
/// options.mouse  // false
/// ```
public struct TerminalOptions: Hashable, Sendable {
    /// Whether colours are drawn.
    public var colors: Bool
    /// Whether SGR mouse reporting is turned on.
    public var mouse: Bool

    /// Creates options explicitly.
    ///
    /// ```swift
    /// let plain = TerminalOptions(colors: false, mouse: true)
    /// ```
    public init(colors: Bool = true, mouse: Bool = true) {
        self.colors = colors
        self.mouse = mouse
    }

    /// Reads `NO_COLOR`, `TERM` and `--no-mouse`.
    ///
    /// ```swift
    /// let options = TerminalOptions(environment: ProcessInfo.processInfo.environment,
    ///                               arguments: CommandLine.arguments)
    /// ```
    public init(environment: [String: String], arguments: [String]) {
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        let dumb = environment["TERM"] == "dumb"
        self.init(colors: !(noColor || dumb), mouse: !arguments.contains("--no-mouse"))
    }

    /// The options of this process.
    ///
    /// ```swift
    /// let session = try TerminalSession(options: .current)
    /// ```
    public static var current: TerminalOptions {
        TerminalOptions(environment: ProcessEnvironment.variables, arguments: CommandLine.arguments)
    }
}
