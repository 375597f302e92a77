#if canImport(Glibc)
    import Glibc
#endif

/// The program's arguments and the environment variables that name its
/// store, read from the bytes the system gave. `CommandLine.arguments` and
/// `ProcessInfo.environment` decode them as UTF-8 replacing what is not
/// (`a\xff.sqlite` and `a\xfe.sqlite` would both become `a\u{FFFD}.sqlite`,
/// another file); names and paths are kept as text, so anything that is not
/// UTF-8 is refused instead, with a message that says which.
///
/// ```swift
/// let tokens = try RawCommandLine.arguments([Array("planets".utf8), [0x61, 0xFF]])
/// // throws: argument 2 ('a\xFF') is not UTF-8 text: …
/// ```
package enum RawCommandLine {
    /// The variables that may name a store, its folder or its replica.
    package static let storeVariables = ["FOLIO_STORE", "XDG_DATA_HOME", "HOME", "FOLIO_REPLICA"]

    /// This process's arguments after the program's name, as bytes.
    package static var currentArguments: [[UInt8]] {
        (1..<Int(CommandLine.argc)).map { index in
            CommandLine.unsafeArgv[index].map {
                Array(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0)))
            } ?? []
        }
    }

    /// The names among `storeVariables` whose values in this process's environment are not UTF-8.
    package static var undecodableStoreVariables: Set<String> {
        var names: Set<String> = []
        var entry = environ
        while let pointer = entry.pointee {
            let bytes = Array(
                UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")),
                let name = String(validating: bytes[..<equals], as: UTF8.self), storeVariables.contains(name),
                String(validating: bytes[(equals + 1)...], as: UTF8.self) == nil
            {
                names.insert(name)
            }
            entry += 1
        }
        return names
    }

    /// `raw` decoded as UTF-8; throws ``AppError/usage(message:)`` naming the
    /// first argument that is not (counted from 1 after the program's name).
    package static func arguments(_ raw: [[UInt8]]) throws -> [String] {
        try raw.enumerated().map { index, bytes in
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw AppError.usage(
                    message: "argument \(index + 1) ('\(shown(bytes))') is not UTF-8 text: "
                        + "folio reads names and paths as UTF-8 and cannot keep these bytes; rename the file, or link to it by a UTF-8 name"
                )
            }
            return text
        }
    }

    /// The message for a store variable whose value is not UTF-8.
    package static func undecodableVariable(_ name: String) -> AppError {
        AppError.usage(
            message: "$\(name) is not UTF-8 text: folio reads paths as UTF-8 and cannot keep its bytes; "
                + "set it to a UTF-8 path, or name the store with --store")
    }

    /// The bytes with each one that is not part of valid UTF-8 as `\xFF`.
    package static func shown(_ bytes: [UInt8]) -> String {
        var out = ""
        var index = 0
        while index < bytes.count {
            // The longest valid UTF-8 sequence starting here (at most 4 bytes), else one byte escaped.
            let valid = (1...min(4, bytes.count - index)).reversed().first { length in
                String(validating: bytes[index..<(index + length)], as: UTF8.self)?.unicodeScalars.count == 1
            }
            if let valid {
                out += String(decoding: bytes[index..<(index + valid)], as: UTF8.self)
                index += valid
            } else {
                let hex = String(bytes[index], radix: 16, uppercase: true)
                out += "\\x" + (hex.count == 1 ? "0" : "") + hex
                index += 1
            }
        }
        return out
    }
}
