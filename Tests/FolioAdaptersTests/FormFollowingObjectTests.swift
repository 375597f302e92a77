import FolioAdapters
import FolioStore
import FolioTerminal
import FolioTestSupport
import Foundation
import Testing

/// A form following a managed object that another program (a second
/// container on the same SQLite file) changes and deletes: the form hears
/// each save, adopts what the user did not touch, points out a change to
/// what the user edited, saves only the user's changes, and closes when the
/// object is deleted.
@MainActor
struct FormFollowingObjectTests {
    /// A form over `item`'s name and score, following it, pushed over a list in a recording application.
    func open(_ item: ResultsItem, in context: ObjectContext) -> (Application, NavigationController, FormController) {
        let form = FormController(
            title: "Edit Item",
            sections: [.init(title: nil, fields: [.text("name", "Name"), .text("score", "Score")])],
            values: ["name": item.name, "score": String(item.score)])
        form.follow(item, in: context, noun: "item") { object in
            guard let item = object as? ResultsItem else { return [:] }
            return ["name": item.name, "score": String(item.score)]
        }
        let navigation = NavigationController(root: ViewController(title: "Items"))
        let (app, _) = Application.recording(navigation, columns: 60, rows: 16)
        navigation.push(form)
        app.render()
        return (app, navigation, form)
    }

    final class Flag { var isSet = false }

    /// The item named `name` as `context` reads it now.
    func item(_ name: String, in context: ObjectContext) throws -> ResultsItem? {
        let request = FetchRequest<ResultsItem>()
        return try context.fetch(request).first { $0.name == name }
    }

    @Test("Adopts another program's change, points out a conflict, saves only the user's field, closes when deleted")
    func followsAnotherProgram() async throws {
        let directory = try StoreTemporaryDirectory()
        let path = directory.path("follow.sqlite")
        let mine = try PersistentContainer(schema: ResultsTestSchema.make(), path: path)
        let theirs = try PersistentContainer(schema: ResultsTestSchema.make(), path: path)
        let context = mine.viewContext
        let okapi = ResultsItem(context: context)
        okapi.name = "Okapi"
        okapi.score = 3
        try context.save()
        let (app, navigation, form) = open(okapi, in: context)

        // Their change to a field the user has not touched shows at once.
        let their = try #require(try item("Okapi", in: theirs.viewContext))
        their.score = 4
        try theirs.viewContext.save()
        #expect(await waitUntil { form.value("score") == "4" }, "the untouched field follows the object")
        #expect(form.changedValues.isEmpty)

        // The user edits the name; their change to the score still arrives, and is not the user's.
        app.send("Enter ' Jr' Enter")
        #expect(form.changedValues == ["name": "Okapi Jr"])
        their.score = 5
        try theirs.viewContext.save()
        #expect(await waitUntil { form.value("score") == "5" })
        #expect(app.presentedAlert == nil)

        // Done's save writes the name only: their score stays.
        let saved = Flag()
        form.save(
            in: context,
            {
                try form.requireNoChangeElsewhere()
                if let name = form.changedValues["name"] { okapi.name = name }
            }
        ) { saved.isSet = true }
        await StoreSaveQueue.allFinished()
        #expect(saved.isSet, "\(app.presentedAlert?.message ?? "")")
        let check = try PersistentContainer(schema: ResultsTestSchema.make(), path: path)
        let stored = try #require(try item("Okapi Jr", in: check.viewContext))
        #expect(stored.score == 5, "the untouched score kept what the store has")

        // They delete it: the form closes and says so.
        theirs.viewContext.refresh(their, mergeChanges: false)  // their copy reads the saved name first
        theirs.viewContext.delete(their)
        try theirs.viewContext.save()
        #expect(await waitUntil { navigation.topViewController !== form }, "the form closed")
        #expect(app.presentedAlert?.title == "Item Deleted")
        #expect(!form.isFollowing)
    }
}
