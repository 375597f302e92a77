import FolioStore
import Foundation

/// Reads what ``CacheWriter`` wrote; nil on truncated or unknown input.
struct CacheReader {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { offset >= bytes.count }

    mutating func int64() -> Int64? {
        guard offset + 8 <= bytes.count else { return nil }
        var v: UInt64 = 0
        for i in 0..<8 { v |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        offset += 8
        return Int64(bitPattern: v)
    }

    mutating func value() -> StoreValue? {
        guard offset < bytes.count else { return nil }
        let tag = bytes[offset]
        offset += 1
        switch tag {
        case 0: return .null
        case 1: return int64().map { .integer($0) }
        case 2: return int64().map { .real(Double(bitPattern: UInt64(bitPattern: $0))) }
        case 3, 4:
            guard let count = int64(), count >= 0, offset + Int(count) <= bytes.count else { return nil }
            let slice = bytes[offset..<offset + Int(count)]
            offset += Int(count)
            return tag == 3 ? .text(String(decoding: slice, as: UTF8.self)) : .blob(Data(slice))
        default: return nil
        }
    }
}
