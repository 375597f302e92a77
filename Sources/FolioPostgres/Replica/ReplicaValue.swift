import FolioStore
import Foundation

/// A ``StoreValue`` in an outbox entry's JSON: `null`, or an object with one
/// key naming the type (`i` integer, `r` real, `f` a real JSON cannot spell, by its bits,
/// `t` text, `b` base64 bytes),
/// so a value reads back exactly as it was written.
struct ReplicaValue: Codable, Equatable {
    var value: StoreValue

    init(_ value: StoreValue) { self.value = value }

    private enum Key: String, CodingKey { case i, r, f, t, b }

    init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), single.decodeNil() {
            value = .null
            return
        }
        let c = try decoder.container(keyedBy: Key.self)
        if let i = try c.decodeIfPresent(Int64.self, forKey: .i) {
            value = .integer(i)
        } else if let r = try c.decodeIfPresent(Double.self, forKey: .r) {
            value = .real(r)
        } else if let f = try c.decodeIfPresent(UInt64.self, forKey: .f) {
            value = .real(Double(bitPattern: f))
        } else if let t = try c.decodeIfPresent(String.self, forKey: .t) {
            value = .text(t)
        } else if let b = try c.decodeIfPresent(String.self, forKey: .b), let data = Data(base64Encoded: b) {
            value = .blob(data)
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: "not a stored value"))
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch value {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .integer(let i):
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(i, forKey: .i)
        case .real(let r):
            // JSON has no NaN or infinities: those travel as their bits.
            var c = encoder.container(keyedBy: Key.self)
            if r.isFinite { try c.encode(r, forKey: .r) } else { try c.encode(r.bitPattern, forKey: .f) }
        case .text(let t):
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(t, forKey: .t)
        case .blob(let d):
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(d.base64EncodedString(), forKey: .b)
        }
    }
}
