import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where the parts of a results cache file lie. After the text header:
///
///     head     six little-endian Int64s: sections, rows, section table bytes,
///              key bytes, key checksum, head checksum (over the text header,
///              the first five and the section table)
///     table    per section: its key value (tagged) and its row count
///     ids      every row's ID, sections one after another, in order
///     sums     a checksum per chunk of `chunkRows` IDs
///     keys     every row's sort values after the section key, in the same order
///
/// IDs are fixed-width and checked by chunk, so a relaunch reads and checks
/// them in one go and answers any row by position; the keys are read only to
/// load the whole order. The file's length must be exactly what the head says.
struct CacheLayout {
    static let chunkRows = 4096
    static let headFields = 6

    let textLength: Int
    let sectionCount: Int
    let rowCount: Int
    let tableLength: Int
    let keysLength: Int
    let keysChecksum: UInt64

    var tableOffset: Int { textLength + Self.headFields * 8 }
    var idsOffset: Int { tableOffset + tableLength }
    var chunkCount: Int { (rowCount + Self.chunkRows - 1) / Self.chunkRows }
    var sumsOffset: Int { idsOffset + rowCount * 8 }
    var keysOffset: Int { sumsOffset + chunkCount * 8 }
    var fileLength: Int { keysOffset + keysLength }

    /// The bytes of chunk `index` within the ID region.
    func chunkByteRange(_ index: Int) -> Range<Int> {
        let first = index * Self.chunkRows
        return first * 8..<min(rowCount, first + Self.chunkRows) * 8
    }

    /// Reads the head that follows `text.count` bytes of text header; nil when it cannot be sane.
    init?(textLength: Int, head: [Int64], fileSize: Int) {
        guard head.count == Self.headFields, head[0...3].allSatisfy({ $0 >= 0 && $0 <= Int64(fileSize) }) else { return nil }
        self.textLength = textLength
        sectionCount = Int(head[0])
        rowCount = Int(head[1])
        tableLength = Int(head[2])
        keysLength = Int(head[3])
        keysChecksum = UInt64(bitPattern: head[4])
        guard fileLength == fileSize else { return nil }
    }

    init(textLength: Int, sectionCount: Int, rowCount: Int, tableLength: Int, keysLength: Int, keysChecksum: UInt64) {
        self.textLength = textLength
        self.sectionCount = sectionCount
        self.rowCount = rowCount
        self.tableLength = tableLength
        self.keysLength = keysLength
        self.keysChecksum = keysChecksum
    }

    /// A 64-bit checksum of `bytes`, eight at a time (damage, not malice, is what it guards against).
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var offset = 0
        func mix(_ word: UInt64) {
            hash = (hash ^ word) &* 0x0000_0100_0000_01B3
            hash ^= hash >> 29
        }
        while offset + 8 <= bytes.count {
            mix(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        var tail: UInt64 = 0
        for (shift, byte) in bytes[offset...].enumerated() { tail |= UInt64(byte) << (8 * UInt64(shift)) }
        mix(tail)
        return hash ^ (hash >> 32)
    }

    /// Exactly `count` bytes of the open file at `offset`, or nil.
    static func read(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8]? {
        guard count >= 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        let complete = bytes.withUnsafeMutableBytes { buffer -> Bool in
            while done < count {
                let got = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { return false }
                done += got
            }
            return true
        }
        return complete ? bytes : nil
    }
}
