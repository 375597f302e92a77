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

    /// Writes `line` and a newline to standard output.
    public func out(_ line: String) {
        write(line + "\n", toError: false)
    }

    /// Writes `line` and a newline to standard error.
    public func error(_ line: String) {
        write(line + "\n", toError: true)
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
