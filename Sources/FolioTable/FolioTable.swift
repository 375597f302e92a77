// FolioTable
