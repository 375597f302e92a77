extension Screen {
    /// Whether row `row` of this screen equals row `other` of `screen`.
    ///
    /// - Complexity: O(width).
    func row(_ row: Int, equals other: Int, of screen: Screen) -> Bool {
        let width = self.width
        return cells.withUnsafeBufferPointer { mine in
            screen.cells.withUnsafeBufferPointer { theirs in
                for column in 0..<width where mine[row * width + column] != theirs[other * width + column] {
                    return false
                }
                return true
            }
        }
    }
}
