#if canImport(Glibc)
    import Glibc
#endif

enum FileHandle {
    /// Writes a message to standard error.
    static func standardErrorWrite(_ message: String) {
        let bytes = Array(message.utf8)
        _ = bytes.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count) }
    }
}
