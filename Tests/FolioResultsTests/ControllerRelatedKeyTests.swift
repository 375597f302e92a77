import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Objects whose keys are read through a to-one relationship are placed
/// again whenever the related object's key changes, however the change ends:
/// processed, deleted, refused by a delete rule, rolled back.
@MainActor @Suite struct ControllerRelatedKeyTests {
    /// A kind with one item, and a live controller sectioned by the kind's order.
    @MainActor struct Fixture {
        let store: TestStore
        let container: PersistentContainer
        let kind: LinkedKind
        let item: LinkedItem
        let watch: ResultsWatch<LinkedItem>

        init(_ backend: TestBackend) async throws {
            store = try await backend.makeStore()
            container = try PersistentContainer(schema: LinkedTestSchema.make(), store: store.description)
            let context = container.viewContext
            kind = LinkedKind(context: context)
            kind.order = "Cetacea"
            item = LinkedItem(context: context)
            item.name = "Orca"
            item.kind = kind
            try context.save()
            let request = FetchRequest<LinkedItem>(sortBy: [SortDescriptor(\.kind?.order), SortDescriptor(\.name)])
            watch = try ResultsWatch(request, in: context, sectionKey: \LinkedItem.kind?.order)
        }

        var context: ObjectContext { container.viewContext }
        var shown: [String] { watch.harness.controller.sections?.map(\.name) ?? [] }

        /// The live controller agrees with a fetch and with a controller made now.
        func expectAgreement(_ label: String) throws {
            #expect(try watch.agreesWithFetch(), "\(label): \(shown)")
            #expect(watch.problems.isEmpty, "\(label): \(watch.problems)")
            let now = try ResultsWatch<LinkedItem>(watch.harness.controller.fetchRequest, in: context, sectionKey: \LinkedItem.kind?.order)
            #expect(now.harness.controller.sections?.map(\.name) == shown, "\(label): a fresh controller")
        }
    }

    @Test(arguments: TestBackend.allCases)
    func aRefusedDeletionRolledBackPlacesTheDependentsAgain(_ backend: TestBackend) async throws {
        let f = try await Fixture(backend)
        f.kind.order = "Zeta"
        f.context.processPendingChanges()
        #expect(f.shown == ["Zeta"])
        f.context.delete(f.kind)
        f.context.processPendingChanges()
        try f.expectAgreement("deleted, unsaved")
        #expect(throws: StoreError.self, "the deny rule refuses the deletion") { try f.context.save() }
        try f.expectAgreement("refused")
        f.context.rollback()
        #expect(f.shown == ["Cetacea"])
        try f.expectAgreement("rolled back")
    }

    @Test(arguments: TestBackend.allCases)
    func aRenameAndDeletionInOneBatchPlaceTheDependents(_ backend: TestBackend) async throws {
        let f = try await Fixture(backend)
        f.kind.order = "Zeta"
        f.context.delete(f.kind)
        f.context.processPendingChanges()
        try f.expectAgreement("renamed and deleted in one batch")
        #expect(throws: StoreError.self, "the deny rule refuses the deletion") { try f.context.save() }
        f.context.rollback()
        #expect(f.shown == ["Cetacea"])
        try f.expectAgreement("rolled back")
    }
}
