import FolioAppSupport

print("folio: the apps are not built yet")
