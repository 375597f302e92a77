import CLibPQ
import FolioStore
import Foundation

/// The rows of one statement, in libpq's text format, read as
/// ``StoreValue``s by their column types (integers, floats, text, bytes,
/// booleans as 0 or 1). Frees its result when released.
///
///     let result = try connection.query("SELECT id, name FROM \"Planet\"")
///     for row in 0..<result.rowCount { print(result.int64(row: row, column: 0)) }
final class PGResult {
    private let result: OpaquePointer
    let rowCount: Int
    let columnCount: Int
    private let kinds: [Kind]

    private enum Kind { case integer, real, text, bytes, boolean }

    init(_ result: OpaquePointer) {
        self.result = result
        rowCount = Int(PQntuples(result))
        columnCount = Int(PQnfields(result))
        kinds = (0..<Int32(PQnfields(result))).map { column in
            switch PQftype(result, column) {
            case 20, 21, 23, 26: .integer  // int8, int2, int4, oid
            case 700, 701, 1700: .real  // float4, float8, numeric
            case 17: .bytes  // bytea
            case 16: .boolean  // bool
            default: .text
            }
        }
    }

    deinit { PQclear(result) }

    func isNull(row: Int, column: Int) -> Bool { PQgetisnull(result, Int32(row), Int32(column)) == 1 }

    /// An integer column's value (0 for NULL), parsed without a Swift string.
    func int64(row: Int, column: Int) -> Int64 {
        guard let text = PQgetvalue(result, Int32(row), Int32(column)) else { return 0 }
        return strtoll(text, nil, 10)
    }

    func value(row: Int, column: Int) -> StoreValue {
        if isNull(row: row, column: column) { return .null }
        let r = Int32(row), c = Int32(column)
        guard let text = PQgetvalue(result, r, c) else { return .null }
        switch kinds[column] {
        case .integer: return .integer(strtoll(text, nil, 10))
        case .boolean: return .integer(text.pointee == UInt8(ascii: "t") ? 1 : 0)
        case .real: return .real(Self.double(String(cString: text)))
        case .text:
            let length = Int(PQgetlength(result, r, c))
            return .text(String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self))
        case .bytes:
            var length = 0
            guard let bytes = PQunescapeBytea(UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), &length) else {
                return .blob(Data())
            }
            defer { PQfreemem(bytes) }
            return .blob(Data(bytes: bytes, count: length))
        }
    }

    /// PostgreSQL's spelling of a float (`Infinity`, `NaN` included).
    private static func double(_ text: String) -> Double {
        switch text {
        case "Infinity": .infinity
        case "-Infinity": -.infinity
        case "NaN": .nan
        default: Double(text) ?? 0
        }
    }
}

/// Statement parameters: each value's type (so the server never has to
/// guess), its text (texts and blobs as their bytes, sent in binary), in C memory for the call.
struct PGParameters {
    private(set) var types: [UInt32] = []
    private var texts: [[UInt8]?] = []
    private var formats: [Int32] = []

    init(_ values: [StoreValue]) {
        types.reserveCapacity(values.count)
        for value in values {
            switch value {
            case .null: append(0, nil, 0)
            case .integer(let i): append(20, Array(String(i).utf8), 0)
            case .real(let d): append(701, Array(Self.text(d).utf8), 0)
            // Text goes with its length (binary format is its UTF-8 bytes): sent NUL-terminated it
            // would be cut at a NUL; this way the server refuses it and the save fails whole.
            case .text(let s): append(25, Array(s.utf8), 1)
            case .blob(let b): append(17, Array(b), 1)
            }
        }
    }

    private mutating func append(_ type: UInt32, _ text: [UInt8]?, _ format: Int32) {
        types.append(type)
        texts.append(text)
        formats.append(format)
    }

    private static func text(_ d: Double) -> String {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
        return "\(d)"
    }

    /// Calls `body` with libpq's parameter arrays (types, values, lengths, formats).
    func withPointers<R>(
        _ body: (
            UnsafePointer<UInt32>?, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?,
            UnsafePointer<Int32>?
        ) -> R
    ) -> R {
        if texts.isEmpty { return body(nil, nil, nil, nil) }
        // Text values end in NUL for libpq; binary ones are passed with their length.
        let buffers: [UnsafeMutablePointer<CChar>?] = texts.map { bytes -> UnsafeMutablePointer<CChar>? in
            guard let bytes else { return nil }
            let p = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (i, byte) in bytes.enumerated() { p[i] = CChar(bitPattern: byte) }
            p[bytes.count] = 0
            return p
        }
        defer { for b in buffers { b?.deallocate() } }
        let lengths = texts.map { Int32($0?.count ?? 0) }
        let values: [UnsafePointer<CChar>?] = buffers.map { $0.map { UnsafePointer($0) } }
        return types.withUnsafeBufferPointer { t in
            values.withUnsafeBufferPointer { v in
                lengths.withUnsafeBufferPointer { l in
                    formats.withUnsafeBufferPointer { f in body(t.baseAddress, v.baseAddress, l.baseAddress, f.baseAddress) }
                }
            }
        }
    }
}
