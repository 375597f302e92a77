extension KeyPathProbe {
    /// Makes a stand-in value of a `Codable` attribute type for a probe: every
    /// field present, numbers zero, text empty, no optional nil, collections
    /// empty. Types that refuse such values (an enum without an empty raw
    /// value, a URL) cannot be made; their attributes need a default value.
    ///
    ///     let point = try TestPoint(from: KeyPathProbe.SampleDecoder())   // (0, 0)
    struct SampleDecoder: Decoder {
        var codingPath: [any CodingKey] = []
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(Keyed<Key>(codingPath: codingPath))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { Unkeyed(codingPath: codingPath) }

        func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(codingPath: codingPath) }

        static func sample<T: Decodable>(_ type: T.Type, at path: [any CodingKey]) throws -> T {
            switch type {
            case is String.Type: return "" as! T
            case is Bool.Type: return false as! T
            case is Double.Type: return 0.0 as! T
            case is Float.Type: return Float(0) as! T
            case is Int.Type: return 0 as! T
            case is Int64.Type: return Int64(0) as! T
            case is Int32.Type: return Int32(0) as! T
            case is UInt.Type: return UInt(0) as! T
            case is UInt64.Type: return UInt64(0) as! T
            default: return try T(from: SampleDecoder(codingPath: path))
            }
        }

        struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
            var codingPath: [any CodingKey]
            var allKeys: [Key] { [] }
            func contains(_ key: Key) -> Bool { true }
            func decodeNil(forKey key: Key) throws -> Bool { false }
            func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
                try SampleDecoder.sample(type, at: codingPath + [key])
            }
            func nestedContainer<N: CodingKey>(keyedBy type: N.Type, forKey key: Key) throws -> KeyedDecodingContainer<N> {
                KeyedDecodingContainer(Keyed<N>(codingPath: codingPath + [key]))
            }
            func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
                Unkeyed(codingPath: codingPath + [key])
            }
            func superDecoder() throws -> any Decoder { SampleDecoder(codingPath: codingPath) }
            func superDecoder(forKey key: Key) throws -> any Decoder { SampleDecoder(codingPath: codingPath + [key]) }
        }

        /// Always empty.
        struct Unkeyed: UnkeyedDecodingContainer {
            var codingPath: [any CodingKey]
            var count: Int? { 0 }
            var isAtEnd: Bool { true }
            var currentIndex: Int { 0 }
            private func end() -> DecodingError {
                .valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "a sample collection is empty"))
            }
            mutating func decodeNil() throws -> Bool { throw end() }
            mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { throw end() }
            mutating func nestedContainer<N: CodingKey>(keyedBy type: N.Type) throws -> KeyedDecodingContainer<N> { throw end() }
            mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw end() }
            mutating func superDecoder() throws -> any Decoder { throw end() }
        }

        struct Single: SingleValueDecodingContainer {
            var codingPath: [any CodingKey]
            func decodeNil() -> Bool { false }
            func decode<T: Decodable>(_ type: T.Type) throws -> T { try SampleDecoder.sample(type, at: codingPath) }
        }
    }
}
