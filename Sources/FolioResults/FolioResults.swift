// FolioResults
