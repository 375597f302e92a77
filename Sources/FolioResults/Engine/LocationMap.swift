/// Where each row lives, by identifier. Integer identifiers that are dense
/// from zero up (SQLite's row IDs) index a flat array: a batch's lookups
/// then cost one memory access each, not a hash and two. Any other
/// identifier (a negative one, one far past the others, any other type)
/// goes to a dictionary.
struct LocationMap<ID: Hashable> {
    typealias Location = RowLocation

    /// By integer identifier; a slot of -1 is a hole.
    private var dense: ContiguousArray<Location> = []
    private var sparse: [ID: Location] = [:]
    private(set) var count = 0

    /// The array index of an integer identifier; folds away once specialised.
    @inline(__always) static func integer(_ id: ID) -> Int? {
        if ID.self == Int64.self { return Int(unsafeBitCast(id, to: Int64.self)) }
        if ID.self == Int.self { return unsafeBitCast(id, to: Int.self) }
        return nil
    }

    subscript(id: ID) -> Location? {
        get {
            if let i = Self.integer(id), i >= 0, i < dense.count {
                let location = dense[i]
                return location.slot < 0 ? nil : location
            }
            return sparse.isEmpty ? nil : sparse[id]
        }
        set {
            if let newValue { updateValue(newValue, forKey: id) } else { removeValue(forKey: id) }
        }
    }

    /// The locations of `count` identifiers, `id(0)`, `id(1)`, …, `.hole` for
    /// one that has none. Integer lookups run in one loop of independent loads
    /// (no reference counting between them), so their cache misses overlap
    /// instead of being waited for one by one.
    func locations(count: Int, _ id: (Int) -> ID) -> [Location] {
        [Location](unsafeUninitializedCapacity: count) { found, initialized in
            dense.withUnsafeBufferPointer { dense in
                for i in 0..<count {
                    let key = id(i)
                    if let k = Self.integer(key), k >= 0, k < dense.count {
                        found[i] = dense[k]
                    } else {
                        found[i] = sparse.isEmpty ? .hole : sparse[key] ?? .hole
                    }
                }
            }
            initialized = count
        }
    }

    /// Stores a location and returns the one it replaces.
    @discardableResult
    mutating func updateValue(_ location: Location, forKey id: ID) -> Location? {
        if let i = Self.integer(id), i >= 0 {
            if i >= dense.count && i < 2 * max(dense.count, count) + 1024 { grow(to: i + 1) }
            if i < dense.count {
                let previous = dense[i]
                dense[i] = location
                if previous.slot < 0 { count += 1; return nil }
                return previous
            }
        }
        let previous = sparse.updateValue(location, forKey: id)
        if previous == nil { count += 1 }
        return previous
    }

    @discardableResult
    mutating func removeValue(forKey id: ID) -> Location? {
        if let i = Self.integer(id), i >= 0, i < dense.count {
            let previous = dense[i]
            guard previous.slot >= 0 else { return nil }
            dense[i] = .hole
            count -= 1
            return previous
        }
        guard let previous = sparse.removeValue(forKey: id) else { return nil }
        count -= 1
        return previous
    }

    /// Stores the handles `0..<n` of one slot for the identifiers `id(0)`,
    /// `id(1)`, …, which must not be stored yet: a section loaded in one
    /// pass, without a call and a check of the array's uniqueness a row.
    /// Returns false when one of them was stored already. Identifiers the
    /// array does not cover go to the dictionary, and make the array grow
    /// only when `growing` (a load that reserved room for every row decided already).
    mutating func placeNew(slot: Int32, count n: Int, growing: Bool = true, _ id: (Int) -> ID) -> Bool {
        var fresh = true
        var elsewhere: [(handle: Int, id: ID)] = []
        dense.withUnsafeMutableBufferPointer { dense in
            for handle in 0..<n {
                let key = id(handle)
                if let i = Self.integer(key), i >= 0, i < dense.count {
                    if dense[i].slot >= 0 { fresh = false }
                    dense[i] = Location(slot: slot, handle: Int32(handle))
                } else {
                    elsewhere.append((handle, key))
                }
            }
        }
        count += n - elsewhere.count
        if !growing {
            count += elsewhere.count
            for (handle, key) in elsewhere where sparse.updateValue(Location(slot: slot, handle: Int32(handle)), forKey: key) != nil {
                fresh = false
                count -= 1
            }
            return fresh
        }
        for (handle, key) in elsewhere where updateValue(Location(slot: slot, handle: Int32(handle)), forKey: key) != nil { fresh = false }
        return fresh
    }

    /// Whether every integer in `range` has a place in the array, so that
    /// a load that reserved room stores them without growing it.
    func denseCovers(_ range: ClosedRange<Int>) -> Bool { range.lowerBound >= 0 && range.upperBound < dense.count }

    /// Every identifier, in no particular order.
    var keys: [ID] {
        var result: [ID] = []
        result.reserveCapacity(count)
        for i in dense.indices where dense[i].slot >= 0 { result.append(Self.identifier(i)) }
        result.append(contentsOf: sparse.keys)
        return result
    }

    /// Room for `capacity` identifiers, integers below `limit` when they are.
    mutating func reserve(_ capacity: Int, integersBelow limit: Int) {
        if Self.isInteger && limit <= 2 * capacity + 1024 {
            if limit > dense.count { grow(to: limit) }
        } else {
            sparse.reserveCapacity(capacity)
        }
    }

    static var isInteger: Bool { ID.self == Int64.self || ID.self == Int.self }

    /// The identifier of an array index (only integer identifiers have one).
    @inline(__always) private static func identifier(_ i: Int) -> ID {
        ID.self == Int64.self ? unsafeBitCast(Int64(i), to: ID.self) : unsafeBitCast(i, to: ID.self)
    }

    /// Makes the array cover `0..<size` (at least doubling) and moves in what the dictionary held there.
    private mutating func grow(to size: Int) {
        let newCount = max(size, dense.count * 2)
        dense.append(contentsOf: repeatElement(.hole, count: newCount - dense.count))
        guard !sparse.isEmpty else { return }
        for (id, location) in sparse {
            guard let i = Self.integer(id), i >= 0, i < newCount else { continue }
            sparse[id] = nil
            dense[i] = location
        }
    }
}

/// Where a row lives: its section's slot and its handle there (8 bytes).
struct RowLocation {
    var slot: Int32
    var handle: Int32
    static var hole: RowLocation { RowLocation(slot: -1, handle: -1) }
}
