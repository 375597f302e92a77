// The change report is written in the shared vocabulary (index paths, change
// types, change sets, snapshots), so importing FolioResults brings it, as
// importing Core Data brings its change types.
@_exported import FolioChanges
