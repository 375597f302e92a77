// FolioChanges: the vocabulary that results and tables share (index paths,
// change types, change sets, snapshots), so that neither side depends on the
// other. Foundation comes with it, as it does with UIKit and Core Data: the
// index paths are Foundation's own.
@_exported import Foundation
