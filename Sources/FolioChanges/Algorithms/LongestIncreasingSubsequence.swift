/// The positions of one longest strictly increasing subsequence.
///
/// Used to choose which of several changed rows that share one gap between
/// unchanged rows may stay put: the largest set whose order survives.
///
/// ```swift
/// longestIncreasingSubsequence([3, 1, 2, 5, 4])   // [1, 2, 4]  (values 1, 2, 4)
/// ```
/// - Complexity: O(n log n).
package func longestIncreasingSubsequence(_ values: [Int]) -> [Int] {
    guard !values.isEmpty else { return [] }
    var tails: [Int] = []  // positions in `values`, by subsequence length
    var previous = [Int](repeating: -1, count: values.count)
    for (i, value) in values.enumerated() {
        var low = 0, high = tails.count
        while low < high {
            let mid = (low + high) / 2
            if values[tails[mid]] < value { low = mid + 1 } else { high = mid }
        }
        if low > 0 { previous[i] = tails[low - 1] }
        if low == tails.count { tails.append(i) } else { tails[low] = i }
    }
    var result: [Int] = []
    var i = tails.last ?? -1
    while i >= 0 {
        result.append(i)
        i = previous[i]
    }
    return result.reversed()
}
