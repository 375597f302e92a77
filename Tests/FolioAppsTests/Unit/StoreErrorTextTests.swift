import FolioAdapters
import FolioAppSupport
import FolioStore
import Testing

/// A store error has one wording: its reason. What the apps show (the
/// reason on a screen, "cannot use the store at …: reason" on the command
/// line) is built from it, and so is the error's description, the store it
/// names in front.
@Suite struct StoreErrorTextTests {
    static let located: [StoreError] = [
        .notADatabase(path: "/s/p.sqlite"), .notAFolioStore(path: "/s/p.sqlite", reason: "no folio_store table"),
        .otherSchema(path: "/s/p.sqlite", stored: "the Planets schema", expected: "the Zoo schema"),
        .corrupt(path: "/s/p.sqlite", message: "bad page"), .readOnly(path: "/s/p.sqlite"),
        .migrationNeeded(path: "/s/p.sqlite", reason: "a new column"), .busy(path: "/s/p.sqlite"),
        .diskFull(path: "/s/p.sqlite"), .cannotOpen(path: "/s/p.sqlite", message: "no such folder"),
        .offline(store: "postgresql://db/folio", message: "connection refused"), .timedOut(store: "postgresql://db/folio"),
        .server(store: "postgresql://db/folio", code: "42P01", message: "no such table", sql: ""),
    ]

    @Test(arguments: located)
    func theDescriptionIsTheStoreThenTheReason(_ error: StoreError) throws {
        let store = try #require(error.store)
        #expect(error.description == "\(store): \(error.reason)")
        #expect(!error.reason.contains(store), "the reason never names the store: \(error.reason)")
    }

    @Test func errorsWithoutAStoreReadAsTheirReason() {
        let errors: [StoreError] = [
            .validation(entity: "Planet", key: "name", reason: "must not be empty"), .deleteDenied(entity: "Zoo", key: "animals"),
            .sqlite(code: 1, message: "syntax error", sql: "SELEC 1"), .objectDeleted(entity: "Planet", id: 3),
        ]
        for error in errors {
            #expect(error.store == nil && error.description == error.reason, "\(error)")
        }
        #expect(
            StoreError.server(store: "postgresql://db/folio", code: "42P01", message: "m", sql: "SELECT 1").description
                == "postgresql://db/folio: the database server failed (SQLSTATE 42P01): m [SELECT 1]")
    }

    /// The words users read did not change when the tables became one.
    @Test func whatUsersReadIsAsBefore() {
        #expect(
            StoreError.busy(path: "/s/p.sqlite").reason
                == "another program kept the store locked while it saved, longer than the busy timeout")
        #expect(
            ErrorText.sentence(for: StoreError.readOnly(path: "/s/p.sqlite"))
                == "The store was opened read-only; nothing can be saved to it.")
        #expect(
            AppError.store(path: "p.sqlite", message: StoreError.notADatabase(path: "/s/p.sqlite").reason).description
                == "cannot use the store at p.sqlite: it is not a Folio store (not an SQLite database); it was left untouched")
        #expect(
            ErrorText.sentence(for: StoreError.validation(entity: "Planet", key: "name", reason: "must not be empty"))
                == "Planet.name: must not be empty.")
    }
}
