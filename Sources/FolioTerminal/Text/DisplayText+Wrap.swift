extension DisplayText {
    /// Splits text into lines of at most `width` columns, breaking at spaces
    /// when possible and inside a long word (at a grapheme boundary) otherwise.
    ///
    /// - Complexity: O(n) graphemes.
    /// ```swift
    /// DisplayText.wrap("Are you sure you want to permanently delete Mercury?", width: 20)
    /// // ["Are you sure you", "want to permanently", "delete Mercury?"]
    /// ```
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(separator: " ") {
                var piece = String(word)
                var pieceWidth = DisplayWidth.of(piece)
                if lineWidth > 0 && lineWidth + 1 + pieceWidth <= width {
                    line += " " + piece
                    lineWidth += 1 + pieceWidth
                    continue
                }
                if lineWidth > 0 {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                // A word longer than the line is cut at grapheme boundaries.
                while pieceWidth > width {
                    var head = ""
                    var headWidth = 0
                    var rest = ""
                    var full = false
                    forEachGrapheme(in: piece) { grapheme, graphemeWidth in
                        // A grapheme wider than the line still goes alone on one.
                        if !full && (headWidth + graphemeWidth <= width || head.isEmpty) {
                            head += grapheme
                            headWidth += graphemeWidth
                        } else {
                            full = true
                            rest += grapheme
                        }
                        return true
                    }
                    if head.isEmpty { break }
                    lines.append(head)
                    piece = rest
                    pieceWidth = DisplayWidth.of(rest)
                }
                line = piece
                lineWidth = pieceWidth
            }
            lines.append(line)
        }
        return lines
    }
}
