import FolioResults

/// The table's index path; Foundation has one of the same name.
typealias IndexPath = FolioResults.IndexPath
