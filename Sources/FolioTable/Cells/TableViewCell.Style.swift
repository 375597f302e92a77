extension TableViewCell {
    /// The built-in cell layouts (UIKit rule 6.7).
    ///
    /// ```swift
    /// let cell = TableViewCell(style: .subtitle, reuseIdentifier: "Animal")
    /// ```
    public enum Style: Int, Sendable, CaseIterable {
        /// A left-aligned text label only; `detailTextLabel` is nil.
        case `default` = 0
        /// Text on the left, detail right-aligned on the same line in a secondary colour.
        case value1 = 1
        /// Text right-aligned in an accent colour, detail left-aligned beside it.
        case value2 = 2
        /// Text on top, detail below it, smaller and grey.
        case subtitle = 3
    }

    /// The decoration at a cell's trailing edge (UIKit rule 6.8).
    ///
    /// ```swift
    /// cell.accessoryType = .disclosureIndicator
    /// ```
    public enum AccessoryType: Int, Sendable, CaseIterable {
        /// Nothing.
        case none = 0
        /// A chevron: selecting the row shows more.
        case disclosureIndicator = 1
        /// An info button plus a chevron.
        case detailDisclosureButton = 2
        /// A checkmark.
        case checkmark = 3
        /// An info button only.
        case detailButton = 4

        /// Whether the accessory is a tappable detail button (rule 6.8).
        ///
        /// ```swift
        /// if cell.accessoryType.hasDetailButton { drawInfoButton() }
        /// ```
        public var hasDetailButton: Bool {
            self == .detailDisclosureButton || self == .detailButton
        }
    }

    /// The editing control shown beside a row in edit mode (UIKit rule 3.3).
    ///
    /// ```swift
    /// func tableView(_ t: TableView, editingStyleForRowAt p: IndexPath) -> TableViewCell.EditingStyle { .insert }
    /// ```
    public enum EditingStyle: Int, Sendable, CaseIterable {
        /// No control.
        case none = 0
        /// A delete control; tapping it reveals a confirmation button.
        case delete = 1
        /// An insert control; tapping it commits at once.
        case insert = 2
    }
}
