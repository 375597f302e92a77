import Foundation

extension StringFilter {
    /// The String attributes the filter reads (any of them matching).
    ///
    ///     filter.textKeyPaths   // [\Animal.commonName, \Animal.habitat]
    package var textKeyPaths: [PartialKeyPath<Entity>] { keyPaths }

    /// The filter's test of one text, the same as the store's, for callers
    /// that hold the texts already (a results controller narrowing its rows).
    ///
    ///     filter.textTest.matches("Café Exhibit")   // true for .contains("cafe") [cd]
    package var textTest: StringTextTest { StringTextTest(match, options: options) }

    /// The folding options the filter compares by (see ``TextFolding``).
    package var foldingOptions: String.CompareOptions { options.intersection(TextFolding.supported) }
}

/// ``StringFilter``'s test of one text. ASCII text, the common case, is
/// folded byte by byte as it is compared, so no folded copy is made;
/// other text is folded as ``TextFolding`` folds it for the store.
///
///     let test = StringTextTest(.contains("ER"), options: .caseInsensitive)
///     test.matches("Ceres")   // true
package struct StringTextTest {
    /// The folded needle's bytes, owned here and read through `needle`, so
    /// that a test of a million texts copies no reference-counted value.
    private final class Needle {
        let bytes: UnsafeMutableBufferPointer<UInt8>
        init(_ text: String) {
            bytes = .allocate(capacity: text.utf8.count)
            _ = bytes.initialize(from: text.utf8)
        }
        deinit { bytes.deallocate() }
    }

    private enum Kind { case equals, contains, beginsWith, endsWith }

    private let owner: Needle
    private let needle: UnsafeBufferPointer<UInt8>
    private let kind: Kind
    private let caseless: Bool
    private let match: StringMatch
    private let options: String.CompareOptions
    private let foldedNeedle: String

    package init(_ match: StringMatch, options: String.CompareOptions) {
        self.match = match
        self.options = options.intersection(TextFolding.supported)
        foldedNeedle = TextFolding.fold(match.string, options)
        owner = Needle(foldedNeedle)
        needle = UnsafeBufferPointer(owner.bytes)
        kind =
            switch match {
            case .equals: .equals
            case .contains: .contains
            case .beginsWith: .beginsWith
            case .endsWith: .endsWith
            }
        caseless = options.contains(.caseInsensitive)
    }

    /// The match as given (its string unfolded).
    package var stringMatch: StringMatch { match }

    /// The needle folded as stored text is, by UTF-8 bytes.
    package var foldedNeedleBytes: [UInt8] { Array(needle) }

    /// `text` folded as the store folds it for `options`, so that a test of
    /// folded texts by bytes matches exactly what ``matches(_:)`` matches.
    ///
    ///     StringTextTest.fold("Café", [.caseInsensitive, .diacriticInsensitive])   // "cafe"
    package static func fold(_ text: String, _ options: String.CompareOptions) -> String { TextFolding.fold(text, options) }

    /// Whether `text` matches; nil (an optional attribute) never does.
    package func matches(_ text: String?) -> Bool {
        guard let text else { return false }
        let needle = needle, kind = kind, caseless = caseless
        // `owner` lives as long as `self`, which the caller holds for the call.
        let ascii = text.utf8.withContiguousStorageIfAvailable { Self.matchesASCII($0, needle, kind, caseless) }
        if let ascii, let verdict = ascii { return verdict }
        return TextFolding.matches(TextFolding.fold(text, options), match, needle: foldedNeedle)
    }

    /// The verdict on ASCII bytes (which fold to ASCII, lowercased when
    /// caseless and otherwise unchanged); nil for any other text.
    private static func matchesASCII(
        _ bytes: UnsafeBufferPointer<UInt8>, _ pattern: UnsafeBufferPointer<UInt8>,
        _ kind: Kind, _ caseless: Bool
    ) -> Bool? {
        var any: UInt8 = 0
        for byte in bytes { any |= byte }
        guard any < 0x80 else { return nil }
        let n = pattern.count, count = bytes.count
        @inline(__always) func fold(_ byte: UInt8) -> UInt8 { caseless && byte &- 65 < 26 ? byte | 0x20 : byte }
        @inline(__always) func same(at start: Int) -> Bool {
            for j in 0..<n where fold(bytes[start + j]) != pattern[j] { return false }
            return true
        }
        switch kind {
        case .equals: return count == n && same(at: 0)
        case .beginsWith: return count >= n && same(at: 0)
        case .endsWith: return count >= n && same(at: count - n)
        case .contains:
            guard n > 0 else { return true }
            guard count >= n else { return false }
            let first = pattern[0]
            for start in 0...(count - n) where fold(bytes[start]) == first && same(at: start) { return true }
            return false
        }
    }
}
