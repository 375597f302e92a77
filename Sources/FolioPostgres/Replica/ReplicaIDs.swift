/// Row IDs that never clash, however many replicas insert offline.
///
/// A row ID is a positive Int64. Ordinary (online) clients of the server
/// hand out IDs below 2^40, under the server's write lock. Replica number
/// n (n ≥ 1, drawn from a server sequence at its first sync, so no two
/// replicas share one) hands out IDs in [n·2^40, (n+1)·2^40), under its own
/// file's write lock, each above every ID it handed out before. The ranges
/// are disjoint, so no two writers can hand out the same ID; 2^40 IDs a
/// replica, and 2^23 − 2 replicas, fit in an Int64.
enum ReplicaIDs {
    /// The bits below a replica's number.
    static let shift: Int64 = 40
    /// The first ID past the ordinary clients' range.
    static let ordinaryLimit: Int64 = 1 << shift
    /// The largest replica number whose range fits.
    static let largestNumber: Int64 = (Int64.max >> shift) - 1

    /// The IDs replica `number` hands out.
    static func range(of number: Int64) -> Range<Int64> {
        precondition(number >= 1 && number <= largestNumber, "replica numbers come from the server's sequence")
        return (number << shift)..<((number + 1) << shift)
    }
}
