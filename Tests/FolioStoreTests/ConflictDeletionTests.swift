import FolioStore
import FolioTestSupport
import Testing

/// A deletion against another save's change, on one SQLite file: the
/// deletions a dropped delete cascaded to are dropped with it, and a kept
/// one deletes them all.
@MainActor
@Suite struct ConflictDeletionTests {
    let dir: StoreTemporaryDirectory
    let path: String

    init() throws {
        dir = try StoreTemporaryDirectory()
        path = dir.path("deletions.sqlite")
    }

    func open() throws -> PersistentContainer { try PersistentContainer(schema: StoreTestSchema.make(), path: path) }

    /// A classification with two animals (cascade), saved in `a`, its family then changed in `b`; `a` deletes it and saves.
    func deleteAgainstChange(_ policy: MergePolicy) throws -> (TestClassification, [TestAnimal], PersistentContainer) {
        let a = try open(), b = try open()
        let mammals = TestClassification(context: a.viewContext)
        mammals.order = "Carnivora"
        mammals.family = "Felidae"
        let animals = ["Lion", "Tiger"].map { name in
            let animal = TestAnimal(context: a.viewContext)
            animal.commonName = name
            animal.classification = mammals
            return animal
        }
        try a.viewContext.save()
        let theirs = try #require(try b.viewContext.existingObject(with: mammals.objectID) as? TestClassification)
        theirs.family = "Big cats"
        try b.viewContext.save()
        a.viewContext.mergePolicy = policy
        a.viewContext.delete(mammals)
        #expect(animals.allSatisfy { $0.isDeleted })
        try a.viewContext.save()
        return (mammals, animals, a)
    }

    @Test(arguments: [MergePolicy.mergeByPropertyStoreTrump, .rollback])
    func aDroppedDeletionTakesBackWhatItCascadedTo(policy: MergePolicy) throws {
        let (mammals, animals, a) = try deleteAgainstChange(policy)
        #expect(!a.viewContext.hasChanges)
        #expect(!mammals.isDeleted && mammals.family == "Big cats")
        #expect(animals.allSatisfy { !$0.isDeleted && $0.classification === mammals })
        #expect(Set(mammals.animals.map(\.commonName)) == ["Lion", "Tiger"])
        #expect(sqliteColumn(path, "SELECT family FROM TestClassification") == ["Big cats"])
        #expect(
            sqliteColumn(path, "SELECT commonName FROM TestAnimal WHERE classification IS NOT NULL ORDER BY commonName") == [
                "Lion", "Tiger",
            ])
    }

    @Test(arguments: [MergePolicy.mergeByPropertyObjectTrump, .overwrite])
    func aKeptDeletionDeletesWhatItCascadedTo(policy: MergePolicy) throws {
        let (mammals, animals, a) = try deleteAgainstChange(policy)
        #expect(!a.viewContext.hasChanges)
        #expect(mammals.context == nil && animals.allSatisfy { $0.context == nil })
        #expect(sqliteColumn(path, "SELECT count(*) FROM TestClassification") == ["0"])
        #expect(sqliteColumn(path, "SELECT count(*) FROM TestAnimal") == ["0"])
    }

    @Test func underTheErrorPolicyTheDeletionFailsNamingTheObject() throws {
        #expect(
            throws: StoreError.conflict([
                SaveConflict(
                    entity: "TestClassification", id: 1, kind: .changedBeforeDelete,
                    keys: [
                        .init(key: "family", stored: .text("Big cats"), context: .text("Felidae"))
                    ])
            ])
        ) { _ = try deleteAgainstChange(.error) }
        #expect(sqliteColumn(path, "SELECT count(*) FROM TestAnimal") == ["2"])
    }
}
