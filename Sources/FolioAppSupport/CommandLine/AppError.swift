import FolioAdapters
import Foundation

/// Why a command did not do what it was asked; each case maps to an exit status.
///
/// ```swift
/// throw AppError.notFound(kind: "planet", name: "Vulcan")   // "no planet named 'Vulcan'", exit 1
/// throw AppError.usage(message: "missing NAME")             // exit 2
/// ```
public enum AppError: Error, Equatable, CustomStringConvertible {
    /// The command line is malformed: unknown option, missing argument (exit 2).
    case usage(message: String)
    /// A named thing does not exist in the store (exit 1).
    case notFound(kind: String, name: String)
    /// A value is well-formed on the command line but not acceptable (exit 1).
    case invalidValue(option: String, value: String, reason: String)
    /// No thing of that kind has that ID (exit 1).
    case notFoundID(kind: String, id: String)
    /// Several things share the name; the command will not guess (exit 1).
    case ambiguous(kind: String, name: String, ids: [String], option: String)
    /// A thing with that name already exists where names must be unique (exit 1).
    case alreadyExists(kind: String, name: String)
    /// The store could not be opened, read or written (exit 1).
    case store(path: String, message: String)

    /// The process exit status this error ends with.
    ///
    /// `AppError.usage(message: "x").exitStatus == .usage`
    public var exitStatus: ExitStatus {
        switch self {
        case .usage: .usage
        default: .failure
        }
    }

    /// The message printed on stderr, naming the problem: one line, with
    /// the user's text quoted as `shown(_:)` draws it.
    public var description: String {
        switch self {
        case .usage(let message):
            Self.oneLine(message)
        case .notFound(let kind, let name):
            "no \(kind) named '\(Self.shown(name))'"
        case .invalidValue(let option, let value, let reason):
            "invalid value '\(Self.shown(value))' for \(option): \(reason)"
        case .notFoundID(let kind, let id):
            "no \(kind) with id \(Self.shown(id))"
        case .ambiguous(let kind, let name, let ids, let option):
            "\(ids.count) \(kind)s are named '\(Self.shown(name))' (ids \(ids.joined(separator: ", "))): say which with \(option) ID"
        case .alreadyExists(let kind, let name):
            "a \(kind) named '\(Self.shown(name))' already exists"
        case .store(let path, let message):
            "cannot use the store at \(Self.shown(path, limit: 4096)): \(Self.oneLine(message))"
        }
    }

    /// User text inside a one-line message: line breaks and tabs in caret
    /// notation (`^J`, `^M`, `^I`) or `<U+2028>`, as the console's sanitiser
    /// draws every other control, so a value cannot split or forge a line;
    /// text longer than `limit` characters shortened to its start and its
    /// length, so a 100 KB name does not fill the terminal.
    ///
    ///     AppError.shown("a\nb")   // "a^Jb"
    ///     AppError.shown(String(repeating: "x", count: 100_000))   // "xxx…x… (100000 characters)"
    package static func shown(_ text: String, limit: Int = 80) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09...0x0D: out += "^" + String(UnicodeScalar(UInt8(scalar.value + 0x40)))
            case 0x85, 0x2028, 0x2029: out += "<U+" + String(scalar.value, radix: 16, uppercase: true) + ">"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return shortened(out, limit: limit)
    }

    /// `text` (a message from the store or the system) on one line, its
    /// lines joined by "; ", and at most 1,000 characters.
    ///
    ///     AppError.oneLine("*** in database main ***\nPage 5: never used")   // "*** in database main ***; Page 5: never used"
    static func oneLine(_ text: String) -> String { ErrorText.oneLine(text) }

    /// The first `limit` characters of a longer text, then "…" and its length.
    static func shortened(_ text: String, limit: Int) -> String { ErrorText.shortened(text, limit: limit) }
}
