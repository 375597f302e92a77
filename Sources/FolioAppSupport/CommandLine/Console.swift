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
