// FolioTestSupport
