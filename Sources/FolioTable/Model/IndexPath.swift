import Foundation
import FolioResults

/// The position of a row (section, row): FolioResults' `IndexPath`, so that
/// users of FolioTable have it without importing FolioResults.
///
/// Foundation declares an `IndexPath` too, so in a module whose files import
/// Foundation, `IndexPath` as a type is ambiguous; declare once, in that
/// module, `typealias IndexPath = FolioTable.IndexPath` (a module's own
/// declarations shadow imported ones).
///
/// ```swift
/// import Foundation
/// import FolioTable
/// typealias IndexPath = FolioTable.IndexPath
/// let path: IndexPath = IndexPath(row: 3, section: 0)   // prints [0, 3]
/// ```
public typealias IndexPath = FolioResults.IndexPath
