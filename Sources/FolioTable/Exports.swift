// A table speaks the shared vocabulary (index paths, change sets, snapshots),
// so importing FolioTable brings it, as importing UIKit brings IndexPath's
// `row` and `section`.
@_exported import FolioChanges
