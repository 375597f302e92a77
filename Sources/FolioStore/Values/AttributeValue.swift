import Foundation

/// How an attribute's values are stored: SQLite's column type.
///
///     Int.storeType == .integer   // true
public enum StoreType: String, Sendable, Codable {
    /// One of SQLite's storage classes (PostgreSQL uses the matching type).
    case integer, real, text, blob

    /// Zero, empty text or no bytes: what a vanished row reads as.
    var emptyValue: StoreValue {
        switch self {
        case .integer: .integer(0)
        case .real: .real(0)
        case .text: .text("")
        case .blob: .blob(Data())
        }
    }
}

/// A Swift type that can be an attribute: converts to and from a
/// ``StoreValue``. String, Int, Int64, Double, Bool, Date, Data and UUID
/// conform; conform your own `Codable` types through ``CodableAttributeValue``.
///
///     struct Celsius: AttributeValue {
///         var degrees: Double
///         static var storeType: StoreType { .real }
///         init(storeValue: StoreValue) throws { degrees = try Double(storeValue: storeValue) }
///         var storeValue: StoreValue { .real(degrees) }
///     }
public protocol AttributeValue: ManagedValue, Sendable {
    /// The column type.
    static var storeType: StoreType { get }
    /// Decodes a stored value; throws ``StoreError/typeMismatch(expected:found:)`` when it does not fit.
    init(storeValue: StoreValue) throws
    /// The value to store.
    var storeValue: StoreValue { get }
}

extension AttributeValue {
    /// An attribute of ``storeType``.
    public static var _managedKind: ManagedValueKind {
        ManagedValueKind(storage: .attribute(storeType), optional: false)
    }
    /// Decodes the slot; a missing required value is a programmer error.
    public static func _decode(_ slot: ManagedSlot, in context: ObjectContext?) -> Self {
        guard case .value(let v) = slot.storage else { preconditionFailure("not an attribute slot") }
        do { return try Self(storeValue: v) } catch {
            preconditionFailure("a required \(Self.self) attribute has no value (\(error)); set it before reading it")
        }
    }
    /// The stored value.
    public var _slot: ManagedSlot { ManagedSlot(storage: .value(storeValue)) }
    /// `.null`.
    public static var _nilSlot: ManagedSlot { ManagedSlot(storage: .value(.null)) }
}

func mismatch(_ expected: StoreType, _ found: StoreValue) -> StoreError {
    .typeMismatch(expected: expected.rawValue, found: found.description)
}

extension String: AttributeValue {
    /// `.text`.
    public static var storeType: StoreType { .text }
    /// Decodes text.
    public init(storeValue: StoreValue) throws {
        guard case .text(let s) = storeValue else { throw mismatch(.text, storeValue) }
        self = s
    }
    /// The text.
    public var storeValue: StoreValue { .text(self) }
}

extension Int64: AttributeValue {
    /// `.integer`.
    public static var storeType: StoreType { .integer }
    /// Decodes an integer (a real is truncated).
    public init(storeValue: StoreValue) throws {
        switch storeValue {
        case .integer(let v): self = v
        case .real(let v): self = Int64(v)
        default: throw mismatch(.integer, storeValue)
        }
    }
    /// The integer.
    public var storeValue: StoreValue { .integer(self) }
}

extension Int: AttributeValue {
    /// `.integer`.
    public static var storeType: StoreType { .integer }
    /// Decodes an integer.
    public init(storeValue: StoreValue) throws { self = Int(try Int64(storeValue: storeValue)) }
    /// The integer.
    public var storeValue: StoreValue { .integer(Int64(self)) }
}

extension Double: AttributeValue {
    /// `.real`.
    public static var storeType: StoreType { .real }
    /// Decodes a number.
    public init(storeValue: StoreValue) throws {
        switch storeValue {
        case .real(let v): self = v
        case .integer(let v): self = Double(v)
        default: throw mismatch(.real, storeValue)
        }
    }
    /// The number.
    public var storeValue: StoreValue { .real(self) }
}

extension Bool: AttributeValue {
    /// `.integer` (0 or 1).
    public static var storeType: StoreType { .integer }
    /// Decodes 0 as false, anything else as true.
    public init(storeValue: StoreValue) throws { self = try Int64(storeValue: storeValue) != 0 }
    /// 0 or 1.
    public var storeValue: StoreValue { .integer(self ? 1 : 0) }
}

extension Date: AttributeValue {
    /// `.real`: seconds since 1970.
    public static var storeType: StoreType { .real }
    /// Decodes seconds since 1970.
    public init(storeValue: StoreValue) throws {
        self = Date(timeIntervalSince1970: try Double(storeValue: storeValue))
    }
    /// Seconds since 1970.
    public var storeValue: StoreValue { .real(timeIntervalSince1970) }
}

extension Data: AttributeValue {
    /// `.blob`.
    public static var storeType: StoreType { .blob }
    /// Decodes bytes.
    public init(storeValue: StoreValue) throws {
        guard case .blob(let d) = storeValue else { throw mismatch(.blob, storeValue) }
        self = d
    }
    /// The bytes.
    public var storeValue: StoreValue { .blob(self) }
}

extension UUID: AttributeValue {
    /// `.text`: the canonical uppercase form.
    public static var storeType: StoreType { .text }
    /// Decodes the canonical text form.
    public init(storeValue: StoreValue) throws {
        guard case .text(let s) = storeValue, let u = UUID(uuidString: s) else { throw mismatch(.text, storeValue) }
        self = u
    }
    /// The canonical text form.
    public var storeValue: StoreValue { .text(uuidString) }
}

/// A `Codable` value stored as JSON text. Conform and it can be an attribute.
///
///     struct Coordinate: CodableAttributeValue { var lat: Double; var lon: Double }
///     @Managed var where: Coordinate
public protocol CodableAttributeValue: AttributeValue, Codable {}

extension CodableAttributeValue {
    /// `.text` (JSON).
    public static var storeType: StoreType { .text }
    /// Decodes JSON text.
    public init(storeValue: StoreValue) throws {
        guard case .text(let s) = storeValue else { throw mismatch(.text, storeValue) }
        self = try JSONDecoder().decode(Self.self, from: Data(s.utf8))
    }
    /// JSON text with sorted keys, so equal values store equal text.
    public var storeValue: StoreValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(self)) ?? Data()
        return .text(String(decoding: data, as: UTF8.self))
    }
}
