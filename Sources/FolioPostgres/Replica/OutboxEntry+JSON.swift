import FolioStore
import Foundation

// An outbox entry is written on every local save and read on every push,
// so it has a writer and a reader of its own: Foundation's JSON coders
// cost tens of microseconds an entry, more than the save's own SQLite
// writes. The text is the JSON the entry has always had (`ReplicaValue`
// spells the values), so entries written either way read back.
extension OutboxEntry {
    func encoded() -> String {
        var w = OutboxJSONWriter()
        w.begin("{")
        w.key("inserts")
        w.begin("[")
        for i in inserts {
            w.begin("{")
            w.key("entity"); w.string(i.entity)
            w.key("id"); w.integer(i.id)
            w.key("values")
            w.begin("{")
            for (name, value) in i.values.sorted(by: { $0.key < $1.key }) {
                w.key(name)
                w.value(value.value)
            }
            w.end("}")
            w.end("}")
        }
        w.end("]")
        w.key("updates")
        w.begin("[")
        for u in updates {
            w.begin("{")
            w.key("entity"); w.string(u.entity)
            w.key("id"); w.integer(u.id)
            w.key("keys"); w.begin("["); for k in u.keys { w.string(k) }; w.end("]")
            w.key("new"); w.begin("["); for v in u.new { w.value(v.value) }; w.end("]")
            w.key("old"); w.begin("["); for v in u.old { w.value(v.value) }; w.end("]")
            if let seen = u.seen { w.key("seen"); w.integer(seen) }
            w.end("}")
        }
        w.end("]")
        w.key("deletes")
        w.begin("[")
        for d in deletes {
            w.begin("{")
            w.key("entity"); w.string(d.entity)
            w.key("id"); w.integer(d.id)
            if let seen = d.seen { w.key("seen"); w.integer(seen) }
            w.end("}")
        }
        w.end("]")
        for (name, links) in [("adds", adds), ("removes", removes)] {
            w.key(name)
            w.begin("[")
            for l in links {
                w.begin("{")
                w.key("entity"); w.string(l.entity)
                w.key("property"); w.string(l.property)
                w.key("owner"); w.integer(l.owner)
                w.key("member"); w.integer(l.member)
                w.end("}")
            }
            w.end("]")
        }
        w.key("orders")
        w.begin("[")
        for o in orders {
            w.begin("{")
            w.key("entity"); w.string(o.entity)
            w.key("property"); w.string(o.property)
            w.key("owner"); w.integer(o.owner)
            w.key("members"); w.begin("["); for m in o.members { w.integer(m) }; w.end("]")
            w.end("}")
        }
        w.end("]")
        w.key("history"); w.string(history)
        w.end("}")
        return w.text
    }
}

extension OutboxEntry {
    static func decode(_ text: String) throws -> OutboxEntry {
        let root = try JSONNode.outboxEntry(text)
        var entry = OutboxEntry()
        entry.inserts = try root.list("inserts").map {
            var values: [String: ReplicaValue] = [:]
            for (name, value) in try $0.members("values") { values[name] = ReplicaValue(try value.storeValue()) }
            return Insert(entity: try $0.text("entity"), id: try $0.integer("id"), values: values)
        }
        entry.updates = try root.list("updates").map {
            Update(
                entity: try $0.text("entity"), id: try $0.integer("id"), keys: try $0.list("keys").map { try $0.text() },
                new: try $0.list("new").map { ReplicaValue(try $0.storeValue()) },
                old: try $0.list("old").map { ReplicaValue(try $0.storeValue()) }, seen: try $0.optionalInteger("seen"))
        }
        entry.deletes = try root.list("deletes").map {
            Delete(entity: try $0.text("entity"), id: try $0.integer("id"), seen: try $0.optionalInteger("seen"))
        }
        func links(_ key: String) throws -> [Link] {
            try root.list(key).map {
                Link(
                    entity: try $0.text("entity"), property: try $0.text("property"), owner: try $0.integer("owner"),
                    member: try $0.integer("member"))
            }
        }
        entry.adds = try links("adds")
        entry.removes = try links("removes")
        entry.orders = try root.list("orders").map {
            Order(
                entity: try $0.text("entity"), property: try $0.text("property"), owner: try $0.integer("owner"),
                members: try $0.list("members").map { try $0.integer() })
        }
        entry.history = try root.text("history")
        return entry
    }
}

extension JSONNode {
    /// The outbox entry's JSON as a tree (see ``OutboxEntry/encoded()``).
    static func outboxEntry(_ text: String) throws -> JSONNode {
        var reader = JSONReader(Array(text.utf8))
        do { return try reader.document() } catch { throw failure("\(error.reason) (line \(error.line))") }
    }

    private static func failure(_ what: String) -> DecodingError {
        DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "outbox entry: \(what)"))
    }

    private func failure(_ what: String) -> DecodingError { Self.failure(what) }

    private func member(_ key: String) throws -> JSONNode {
        guard case .object = self else { throw failure("expected an object holding \(key)") }
        guard let value = self[key] else { throw failure("no \(key)") }
        return value
    }

    /// The value at `key`, or this one when nil.
    private func at(_ key: String?) throws -> JSONNode {
        guard let key else { return self }
        return try member(key)
    }

    func members(_ key: String) throws -> [(key: String, value: JSONNode)] {
        guard case .object(let members) = try member(key) else { throw failure("\(key) is not an object") }
        return members
    }

    /// The array at `key` (this value itself when nil).
    func list(_ key: String? = nil) throws -> [JSONNode] {
        guard case .array(let elements) = try at(key) else { throw failure("\(key ?? "value") is not an array") }
        return elements
    }

    func text(_ key: String? = nil) throws -> String {
        guard case .string(let s) = try at(key) else { throw failure("\(key ?? "value") is not a string") }
        return s
    }

    func integer(_ key: String? = nil) throws -> Int64 {
        guard let i = try at(key).number?.int64 else { throw failure("\(key ?? "value") is not an integer") }
        return i
    }

    /// The integer at `key`; nil when the object has no such key.
    func optionalInteger(_ key: String) throws -> Int64? {
        guard case .object = self else { throw failure("expected an object holding \(key)") }
        return self[key] == nil ? nil : try integer(key)
    }

    /// A value as ``ReplicaValue`` spells it.
    func storeValue() throws -> StoreValue {
        switch self {
        case .null: return .null
        case .object(let members) where members.count == 1:
            switch (members[0].key, members[0].value) {
            case ("i", .number(let n)): if let i = n.int64 { return .integer(i) }
            case ("r", .number(let n)): if let r = n.double { return .real(r) }
            case ("f", .number(let n)): if let bits = n.uint64 { return .real(Double(bitPattern: bits)) }
            case ("t", .string(let t)): return .text(t)
            case ("b", .string(let b)): if let data = Data(base64Encoded: b) { return .blob(data) }
            default: break
            }
        default: break
        }
        throw failure("not a stored value")
    }
}

/// Writes JSON into a byte buffer; each value puts its own comma.
struct OutboxJSONWriter {
    private var bytes: [UInt8] = []
    /// Whether the next value is the first of its object or array (or an object member's value).
    private var first = true

    init() { bytes.reserveCapacity(256) }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    private mutating func separate() {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
    }

    /// Opens an object or array (`{` or `[`).
    mutating func begin(_ bracket: Unicode.Scalar) {
        separate()
        bytes.append(UInt8(ascii: bracket))
        first = true
    }

    /// Closes it (`}` or `]`).
    mutating func end(_ bracket: Unicode.Scalar) {
        bytes.append(UInt8(ascii: bracket))
        first = false
    }

    /// An object's key: the value written next is its value.
    mutating func key(_ name: String) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
        first = true
    }

    mutating func integer(_ n: Int64) {
        separate()
        bytes += String(n).utf8
    }

    mutating func string(_ s: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), b]
            case 0..<0x20: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u"), 0x30, 0x30, Self.hex[Int(b >> 4)], Self.hex[Int(b & 15)]]
            default: bytes.append(b)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// A stored value as ``ReplicaValue`` spells it.
    mutating func value(_ v: StoreValue) {
        switch v {
        case .null:
            separate()
            bytes += "null".utf8
            return
        case .integer(let i):
            begin("{"); key("i"); integer(i)
        case .real(let r) where r.isFinite:
            // The shortest text that reads back as the same double.
            begin("{"); key("r"); separate(); bytes += r.description.utf8
        case .real(let r):
            begin("{"); key("f"); separate(); bytes += String(r.bitPattern).utf8
        case .text(let t):
            begin("{"); key("t"); string(t)
        case .blob(let d):
            begin("{"); key("b"); string(d.base64EncodedString())
        }
        end("}")
    }
}
