import Synchronization

/// Reads the header of each object in one loop of plain loads, whose cache
/// misses overlap, before a loop that retains them one by one: a retain is an
/// atomic write, which waits for its object's line alone. Worth it for
/// thousands of objects last touched long ago (a big batch's).
///
/// ```swift
/// warmHeaders(of: batch)
/// for object in batch { … }
/// ```
/// - Complexity: O(n), no retain or release.
package func warmHeaders<T: AnyObject>(of objects: [T]) {
    let sum = objects.withUnsafeBufferPointer { objects in
        // A reference is its object's address: reading it through a raw pointer retains nothing.
        // The first word (the object's type) shares a line with the reference count and is never
        // written after the object is made, so the read races with no retain on another thread.
        objects.withMemoryRebound(to: UnsafeRawPointer.self) { addresses in
            var sum: UInt = 0
            for address in addresses { sum &+= address.load(as: UInt.self) }
            return sum
        }
    }
    // Kept where the optimiser cannot prove it unread, so the loads stay.
    headerSum.store(sum, ordering: .relaxed)
}

private let headerSum = Atomic<UInt>(0)
