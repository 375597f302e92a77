// Store-level tests see the lower layers' support and the throwaway server
// through this one import.
@_exported import FolioProcessSupport
@_exported import FolioTableTestSupport
