import FolioTable

/// The Locations list's custom cell: the description (or "(No Description)")
/// over the address (or "Lat: …, Long: …").
final class LocationCell: TableViewCell {
    var title = ""
    var detail = ""

    override func customLines() -> [String]? { [title, detail] }

    /// Two lines: the row is as tall as the cell says.
    override var fittingHeight: Int { 2 }

    override func prepareForReuse() {
        super.prepareForReuse()
        title = ""
        detail = ""
    }
}
