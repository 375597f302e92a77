import Foundation
import FolioResults

/// The position of a row (section, row): FolioResults' `IndexPath`, named
/// here so that a file importing both Foundation and FolioTable gets this
/// type rather than Foundation's. (A module's own declaration shadows
/// Foundation's for its users; a re-export alone would be ambiguous.)
///
/// ```swift
/// import Foundation
/// import FolioTable
/// let path = IndexPath(row: 3, section: 0)   // FolioResults.IndexPath, prints [0, 3]
/// ```
public typealias IndexPath = FolioResults.IndexPath
