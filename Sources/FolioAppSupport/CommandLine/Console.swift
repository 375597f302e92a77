import Foundation

/// Where a command writes: standard output for results, standard error for
/// problems. Tests use ``Console/capturing()`` and read the text back.
///
/// ```swift
/// let console = Console.capturing()
/// console.out("Mercury")
/// console.output   // "Mercury\n"
/// ```
public final class Console {
    private let writeOut: (String) -> Void
    private let writeError: (String) -> Void
    /// What was written to standard output (only for a capturing console).
    public private(set) var output = ""
    /// What was written to standard error (only for a capturing console).
    public private(set) var errorOutput = ""
    private let captures: Bool
    /// Whether this console keeps its text (a test's) rather than writing it.
    package var isCapturing: Bool { captures }

    /// A console over the process's standard output and error.
    public static func standard() -> Console {
        Console(
            out: { FileHandle.standardOutput.write(Data($0.utf8)) },
            error: { FileHandle.standardError.write(Data($0.utf8)) },
            captures: false
        )
    }

    /// A console that keeps everything in ``output`` and ``errorOutput``.
    public static func capturing() -> Console {
        Console(out: { _ in }, error: { _ in }, captures: true)
    }

    private init(out: @escaping (String) -> Void, error: @escaping (String) -> Void, captures: Bool) {
        writeOut = out
        writeError = error
        self.captures = captures
    }

    /// Writes `text` and a newline to standard output, each line made safe
    /// for a terminal (``TextSanitizer``): data never reaches it raw.
    public func out(_ text: String) {
        write(Self.safe(text) + "\n", toError: false)
    }

    /// Writes `text` and a newline to standard error, made safe as `out` does
    /// (names echoed in errors are user data too).
    public func error(_ text: String) {
        write(Self.safe(text) + "\n", toError: true)
    }

    /// Writes `text` (ending in its own line break) to standard output: exactly
    /// when that is a file or a pipe, so exported data arrives as it is; on a
    /// terminal, sanitised as ``out(_:)`` does. A capturing console keeps it exactly.
    package func data(_ text: String) {
        if captures {
            output += text
        } else if isatty(STDOUT_FILENO) == 1 {
            writeOut(Self.safe(text))
        } else {
            writeOut(text)
        }
    }

    /// Every line sanitised; the line breaks between them kept.
    static func safe(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { TextSanitizer.visible(String($0)) }
            .joined(separator: "\n")
    }

    private func write(_ text: String, toError: Bool) {
        if captures {
            if toError { errorOutput += text } else { output += text }
        } else if toError {
            writeError(text)
        } else {
            writeOut(text)
        }
    }
}
