/// Display width in terminal columns, per grapheme cluster, from a table for
/// one fixed Unicode version (`WidthTable.unicodeVersion`), not from glibc.
///
/// Rules: wide and fullwidth characters (CJK, emoji presentation) take 2;
/// combining marks and format characters take 0 inside a cluster; a cluster
/// takes the width of its first scalar, except that an emoji variation
/// selector (VS16) or a regional-indicator pair (a flag) makes it 2. ZWJ
/// sequences and skin-tone modifiers therefore take 2 as one unit.
/// ```swift
/// DisplayWidth.of("a" as Character)    // 1
/// DisplayWidth.of("語" as Character)   // 2
/// DisplayWidth.of("👍🏽" as Character)  // 2
/// DisplayWidth.of("e\u{301}")          // 1
/// ```
public enum DisplayWidth {
    /// The width of one code point on its own: 0, 1 or 2 (controls count 0;
    /// they are never drawn raw, see `DisplayText`).
    ///
    /// - Complexity: O(log r) for r table ranges; O(1) for ASCII.
    /// ```swift
    /// DisplayWidth.of(Unicode.Scalar(0x4E00)!) // 2
    /// ```
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        if value < 0xA0 { return 0 }
        if value < 0x300 { return 1 }  // Latin-1 and Latin Extended: no marks, no wide
        if contains(WidthTable.zero, value) { return 0 }
        if value >= 0x1100, contains(WidthTable.wide, value) { return 2 }
        return 1
    }

    /// The width of one grapheme cluster as drawn (see the type's rules).
    ///
    /// - Complexity: O(s log r) for s scalars in the cluster.
    /// ```swift
    /// DisplayWidth.of("🇫🇷" as Character) // 2
    /// ```
    public static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue {
            return ascii >= 0x20 && ascii < 0x7F ? 1 : 0
        }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if isRegionalIndicator(first) {
            return scalars.dropFirst().contains(where: isRegionalIndicator) ? 2 : 1
        }
        if scalars.contains("\u{FE0F}") { return 2 }
        return of(first)
    }

    /// The width of a string once made safe for display (`DisplayText.visible`).
    ///
    /// - Complexity: O(n) in the string's length.
    /// ```swift
    /// DisplayWidth.of("Hi 世界") // 7
    /// DisplayWidth.of("\u{1B}[2J") // 5: "^[[2J"
    /// ```
    public static func of(_ string: String) -> Int {
        if string.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return string.utf8.count }
        var total = 0
        DisplayText.forEachGrapheme(in: string) { _, width in
            total += width
            return true
        }
        return total
    }

    static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    /// Binary search in a flat array of inclusive `start, end` pairs.
    static func contains(_ ranges: [UInt32], _ value: UInt32) -> Bool {
        var low = 0
        var high = ranges.count / 2 - 1
        while low <= high {
            let mid = (low + high) / 2
            if value < ranges[2 * mid] {
                high = mid - 1
            } else if value > ranges[2 * mid + 1] {
                low = mid + 1
            } else {
                return true
            }
        }
        return false
    }
}
