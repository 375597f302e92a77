import CSQLite
import FolioStore
import FolioTestSupport
import Foundation
import Testing

@MainActor
@Suite struct OrderingTests {
    /// Random values of every storage class, including non-ASCII text and equal numbers of both kinds.
    func randomValue(_ rng: inout StoreSplitMix64) -> StoreValue {
        let words = ["", "a", "B", "b", "ab", "Zebra", "zebra", "é", "e\u{301}", "Ærø", "日本", "😀", "Geoffroy’s", "10", "9"]
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return .null
        case 1: return .integer(Int64.random(in: -5...5, using: &rng))
        case 2: return .real(Double(Int.random(in: -10...10, using: &rng)) / 2)
        case 3, 4: return .text(words.randomElement(using: &rng)!)
        default: return .blob(Data((0..<Int.random(in: 0...3, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }))
        }
    }

    @Test func compareOrdersExactlyAsSQLiteDoes() throws {
        let seed = StoreSplitMix64.seedFromEnvironment()
        print("seed:", seed)
        var rng = StoreSplitMix64(seed: seed)
        var db: OpaquePointer?
        #expect(sqlite3_open(":memory:", &db) == SQLITE_OK)
        defer { sqlite3_close(db) }
        sqlite3_exec(db, "CREATE TABLE t (id INTEGER PRIMARY KEY, a, b)", nil, nil, nil)
        var rows: [(Int64, StoreValue, StoreValue)] = []
        var insert: OpaquePointer?
        sqlite3_prepare_v2(db, "INSERT INTO t (id, a, b) VALUES (?, ?, ?)", -1, &insert, nil)
        defer { sqlite3_finalize(insert) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        func bind(_ v: StoreValue, _ i: Int32) {
            switch v {
            case .null: sqlite3_bind_null(insert, i)
            case .integer(let x): sqlite3_bind_int64(insert, i, x)
            case .real(let x): sqlite3_bind_double(insert, i, x)
            case .text(let s): sqlite3_bind_text(insert, i, s, -1, transient)
            case .blob(let d): _ = d.withUnsafeBytes { sqlite3_bind_blob(insert, i, $0.baseAddress, Int32(d.count), transient) }
            }
        }
        for id in 1...400 {
            let a = randomValue(&rng), b = randomValue(&rng)
            sqlite3_bind_int64(insert, 1, Int64(id))
            bind(a, 2)
            bind(b, 3)
            #expect(sqlite3_step(insert) == SQLITE_DONE)
            sqlite3_reset(insert)
            rows.append((Int64(id), a, b))
        }
        for (ascA, ascB) in [(true, true), (true, false), (false, true), (false, false)] {
            let sql = "SELECT id FROM t ORDER BY a \(ascA ? "ASC" : "DESC"), b \(ascB ? "ASC" : "DESC"), id"
            var query: OpaquePointer?
            sqlite3_prepare_v2(db, sql, -1, &query, nil)
            var fromSQL: [Int64] = []
            while sqlite3_step(query) == SQLITE_ROW { fromSQL.append(sqlite3_column_int64(query, 0)) }
            sqlite3_finalize(query)
            let inMemory = rows.sorted { x, y in
                let r = StoreValue.compare([x.1, x.2], [y.1, y.2], ascending: [ascA, ascB])
                return r == .orderedSame ? x.0 < y.0 : r == .orderedAscending
            }.map(\.0)
            #expect(inMemory == fromSQL, "\(sql), seed \(seed)")
        }
    }
}
