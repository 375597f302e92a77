// FolioAppSupport
