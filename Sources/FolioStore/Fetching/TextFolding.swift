import FolioLocking
import Foundation

/// The one definition of case-, diacritic- and width-insensitive text for
/// ``StringFilter``: the store folds stored text with it in SQL (the SQLite
/// backend registers it as `folio_fold(text, flags)`) and unsaved objects'
/// text in memory, so a filter matches the same objects either way. Folded
/// strings are compared by their UTF-8 bytes.
///
/// - case: upper- then lowercased, scalar by scalar ("Straße" → "strasse",
///   "ς" → "σ", "İ" → "i̇");
/// - diacritics: canonical decomposition with the nonspacing marks dropped
///   ("Café" → "Cafe");
/// - width: compatibility decomposition ("ﬁ" → "fi", "Ｆ" → "F").
///
///     TextFolding.fold("Geoffroy’s Café", [.caseInsensitive, .diacriticInsensitive])   // "geoffroy’s cafe"
enum TextFolding {
    /// The options a filter may fold by.
    static let supported: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive, .widthInsensitive]

    /// Folded scalars, by scalar value and option bits (at most one entry per scalar and options).
    private static let scalarCache = LockedValue<[UInt64: String]>([:])

    /// `text` folded by `options` (only ``supported`` ones count); unchanged without options.
    /// - Complexity: O(length); ASCII text takes a byte-wise path.
    static func fold(_ text: String, _ options: String.CompareOptions) -> String {
        let options = options.intersection(supported)
        if options.isEmpty { return text }
        let caseless = options.contains(.caseInsensitive)
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            guard caseless else { return text }
            return String(decoding: text.utf8.map(lowercasedASCII), as: UTF8.self)
        }
        guard options.contains(.diacriticInsensitive) else {
            // Marks stay, so composition must be undone and redone over the whole text.
            var folded =
                options.contains(.widthInsensitive)
                ? text.precomposedStringWithCompatibilityMapping
                : text.precomposedStringWithCanonicalMapping
            if caseless { folded = folded.uppercased().lowercased().precomposedStringWithCanonicalMapping }
            return folded
        }
        // Without marks each scalar folds alone, so its folding can be cached.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                bytes.append(caseless ? lowercasedASCII(byte) : byte)
            } else {
                bytes.append(contentsOf: foldedScalar(scalar, options).utf8)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `folded` holds `needle` (both folded) as `match` asks, by UTF-8 bytes as SQL compares them.
    static func matches(_ folded: String, _ match: StringMatch, needle: String) -> Bool {
        let haystack = Array(folded.utf8), pattern = Array(needle.utf8)
        switch match {
        case .equals: return haystack == pattern
        case .beginsWith: return haystack.starts(with: pattern)
        case .endsWith: return haystack.count >= pattern.count && haystack.suffix(pattern.count).elementsEqual(pattern)
        case .contains:
            guard !pattern.isEmpty else { return true }
            guard haystack.count >= pattern.count else { return false }
            for start in 0...(haystack.count - pattern.count) where haystack[start] == pattern[0] {
                if haystack[start..<start + pattern.count].elementsEqual(pattern) { return true }
            }
            return false
        }
    }

    /// The option bits as the SQL function takes them.
    static func flags(_ options: String.CompareOptions) -> Int64 { Int64(options.intersection(supported).rawValue) }

    private static func lowercasedASCII(_ byte: UInt8) -> UInt8 { (65...90).contains(byte) ? byte + 32 : byte }

    private static func foldedScalar(_ scalar: Unicode.Scalar, _ options: String.CompareOptions) -> String {
        let key = UInt64(scalar.value) | UInt64(options.rawValue) << 32
        if let hit = scalarCache.withLock({ $0[key] }) { return hit }
        func decomposed(_ s: String) -> String {
            options.contains(.widthInsensitive) ? s.decomposedStringWithCompatibilityMapping : s.decomposedStringWithCanonicalMapping
        }
        var text = decomposed(String(scalar))
        if options.contains(.caseInsensitive) { text = decomposed(text.uppercased().lowercased()) }
        var kept = String.UnicodeScalarView()
        for s in text.unicodeScalars where s.properties.generalCategory != .nonspacingMark { kept.append(s) }
        let folded = String(kept)
        scalarCache.withLock { $0[key] = folded }
        return folded
    }
}
