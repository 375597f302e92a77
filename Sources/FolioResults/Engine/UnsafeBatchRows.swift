extension ResultsEngine {
    /// Each change's row in its old and new section (by change index; -1
    /// when it has none), written by the section threads at once.
    ///
    /// Unsafe: raw buffers, since an array's uniqueness check on a write from
    /// several threads would be a race. Sound because each section writes only
    /// the entries of its own changes (a change leaves one section and arrives
    /// in one), and the entries are read only after `Lanes.run` returned, which
    /// waits for every thread. Debug builds check every index.
    ///
    /// ```swift
    /// let rows = UnsafeBatchRows(count: changes.count)
    /// defer { rows.deallocate() }
    /// rows.old[3] = 17
    /// ```
    struct UnsafeBatchRows {
        /// One entry a change; entries are set through a shared reference.
        struct Column {
            fileprivate let buffer: UnsafeMutableBufferPointer<Int32>

            subscript(change: Int) -> Int32 {
                get {
                    assert(buffer.indices.contains(change), "UnsafeBatchRows: change \(change) of \(buffer.count)")
                    return buffer[change]
                }
                nonmutating set {
                    assert(buffer.indices.contains(change), "UnsafeBatchRows: change \(change) of \(buffer.count)")
                    buffer[change] = newValue
                }
            }
        }

        let old: Column
        let new: Column

        init(count: Int) {
            old = Column(buffer: .allocate(capacity: count))
            new = Column(buffer: .allocate(capacity: count))
            old.buffer.initialize(repeating: -1)
            new.buffer.initialize(repeating: -1)
        }

        /// Frees both columns; the rows are not used after.
        func deallocate() {
            old.buffer.deallocate()
            new.buffer.deallocate()
        }
    }
}
