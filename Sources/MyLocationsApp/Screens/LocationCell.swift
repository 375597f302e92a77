import FolioTable

/// The Locations list's custom cell: the description (or "(No Description)")
/// over the address (or "Lat: …, Long: …").
final class LocationCell: TableViewCell {
    var title = ""
    var detail = ""

    override func customLines() -> [String]? { [title, detail] }

    override func prepareForReuse() {
        super.prepareForReuse()
        title = ""
        detail = ""
    }
}
