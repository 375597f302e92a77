extension Screen {
    /// Checks that wide graphemes are whole: every width-2 cell is followed by
    /// a continuation cell, and every continuation follows a width-2 cell.
    ///
    /// - Complexity: O(width × height).
    /// ```swift
    /// screen.checkInvariants() // traps with the offending cell named
    /// ```
    package func checkInvariants() {
        precondition(cells.count == width * height, "screen has \(cells.count) cells for \(width)x\(height)")
        for row in 0..<height {
            for column in 0..<width {
                let cell = cells[row * width + column]
                if cell.width == 2 {
                    precondition(
                        column + 1 < width && cells[row * width + column + 1].isContinuation,
                        "wide cell (\(column), \(row)) has no continuation")
                } else if cell.isContinuation {
                    precondition(
                        column > 0 && cells[row * width + column - 1].width == 2,
                        "continuation (\(column), \(row)) follows no wide cell")
                }
            }
        }
    }
}
