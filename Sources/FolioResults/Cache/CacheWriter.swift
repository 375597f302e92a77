import FolioStore
import Foundation

/// Appends store values in a small tagged binary form.
struct CacheWriter {
    var bytes: [UInt8] = []

    mutating func int64(_ v: Int64) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func value(_ value: StoreValue) {
        switch value {
        case .null: bytes.append(0)
        case .integer(let v): bytes.append(1); int64(v)
        case .real(let v): bytes.append(2); int64(Int64(bitPattern: v.bitPattern))
        case .text(let s): bytes.append(3); int64(Int64(s.utf8.count)); bytes.append(contentsOf: s.utf8)
        case .blob(let d): bytes.append(4); int64(Int64(d.count)); bytes.append(contentsOf: d)
        }
    }
}
