import FolioStore
import FolioTestSupport
import Foundation
import Testing

@MainActor
@Suite struct RelationshipTests {
    /// Three classifications, four animals, two zoos; saved.
    func seeded(_ path: String? = nil) throws -> PersistentContainer {
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
        let c = container.viewContext
        func classification(_ order: String) -> TestClassification {
            let k = TestClassification(context: c); k.order = order; k.family = order + "idae"; return k
        }
        let sirenia = classification("Sirenia"), primates = classification("Primates"), carnivora = classification("Carnivora")
        let zooA = TestZoo(context: c); zooA.name = "Lowry Park Zoo"
        let zooB = TestZoo(context: c); zooB.name = "San Diego Zoo"
        for (name, k, zoos) in [
            ("Manatee", sirenia, [zooA]), ("Spider Monkey", primates, [zooA, zooB]),
            ("Gorilla", primates, [zooB]), ("Ocelot", carnivora, [TestZoo]()),
        ] {
            let a = TestAnimal(context: c)
            a.commonName = name
            a.classification = k
            a.zoos = Set(zoos)
        }
        try c.save()
        return container
    }

    @Test func inversesAreMaintainedInMemoryAndStored() throws {
        let dir = try StoreTemporaryDirectory()
        let container = try seeded(dir.path("zoo.sqlite"))
        let c = container.viewContext
        let primates = try #require(try c.fetch(FetchRequest<TestClassification>(predicate: #Predicate { $0.order == "Primates" })).first)
        #expect(Set(primates.animals.map(\.commonName)) == ["Spider Monkey", "Gorilla"])
        let zoo = try #require(try c.fetch(FetchRequest<TestZoo>(predicate: #Predicate { $0.name == "San Diego Zoo" })).first)
        #expect(Set(zoo.animals.map(\.commonName)) == ["Spider Monkey", "Gorilla"])
        // A second container reads what was stored, through both sides.
        let other = try PersistentContainer(schema: StoreTestSchema.make(), path: dir.path("zoo.sqlite"))
        let gorilla = try #require(
            try other.viewContext.fetch(FetchRequest<TestAnimal>(predicate: #Predicate { $0.commonName == "Gorilla" })).first)
        #expect(gorilla.classification?.order == "Primates")
        #expect(gorilla.zoos.map(\.name) == ["San Diego Zoo"])
    }

    @Test func reassigningToOneMovesBetweenInverseSets() throws {
        let container = try seeded()
        let c = container.viewContext
        let all = try c.fetch(FetchRequest<TestClassification>(sortBy: [SortDescriptor(\.order)]))
        let (carnivora, primates) = (all[0], all[1])
        let gorilla = primates.animals.first { $0.commonName == "Gorilla" }!
        gorilla.classification = carnivora
        #expect(!primates.animals.contains(gorilla))
        #expect(carnivora.animals.contains(gorilla))
        #expect(gorilla.changedKeys == ["classification"])
        try c.save()
        c.refreshAllObjects()
        #expect(Set(carnivora.animals.map(\.commonName)) == ["Ocelot", "Gorilla"])
        // Setting the to-many side updates the to-one.
        primates.animals.insert(gorilla)
        #expect(gorilla.classification === primates)
    }

    @Test func fetchThroughToOneKeyPaths() throws {
        let container = try seeded()
        let c = container.viewContext
        let request = FetchRequest<TestAnimal>(
            predicate: #Predicate { $0.classification?.order != "Sirenia" },
            sortBy: [SortDescriptor(\.classification?.order), SortDescriptor(\.commonName)])
        #expect(try c.fetch(request).map(\.commonName) == ["Ocelot", "Gorilla", "Spider Monkey"])
        let forced = FetchRequest<TestAnimal>(predicate: #Predicate { $0.classification!.family == "Primatesidae" })
        #expect(try c.count(for: forced) == 2)
        let keys = try c.fetchKeys(request, keyPaths: [\TestAnimal.classification?.order, \TestAnimal.commonName])
        #expect(
            keys.map(\.values) == [
                [.text("Carnivora"), .text("Ocelot")], [.text("Primates"), .text("Gorilla")],
                [.text("Primates"), .text("Spider Monkey")],
            ])
    }

    @Test func cascadeAndNullifyDeleteRules() throws {
        let container = try seeded()
        let c = container.viewContext
        let primates = try #require(try c.fetch(FetchRequest<TestClassification>(predicate: #Predicate { $0.order == "Primates" })).first)
        c.delete(primates)  // cascades to its animals; their zoo memberships are nullified
        #expect(try c.count(for: FetchRequest<TestAnimal>()) == 2)
        let zoo = try #require(try c.fetch(FetchRequest<TestZoo>(predicate: #Predicate { $0.name == "San Diego Zoo" })).first)
        #expect(zoo.animals.isEmpty)
        try c.save()
        #expect(try c.count(for: FetchRequest<TestAnimal>()) == 2)
        c.refreshAllObjects()
        #expect(zoo.animals.isEmpty)
    }

    @Test func orderedToManyKeepsOrder() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("guides.sqlite")
        do {
            let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
            let c = container.viewContext
            let guide = TestGuide(context: c)
            guide.title = "Rush"
            let steps = ["Probe", "Pylon", "Gateway"].map { label -> TestStep in
                let s = TestStep(context: c); s.label = label; return s
            }
            guide.steps = steps
            try c.save()
            guide.steps = [steps[2], steps[0], steps[1]]
            try c.save()
        }
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
        let guide = try #require(try container.viewContext.fetch(FetchRequest<TestGuide>()).first)
        #expect(guide.steps.map(\.label) == ["Gateway", "Probe", "Pylon"])
        #expect(guide.steps.allSatisfy { $0.guide === guide })
    }
}

@MainActor
@Suite struct ToManyPredicateTests {
    @Test func containsCountAndIsEmptyOnToManys() throws {
        let container = try RelationshipTests().seeded()
        let c = container.viewContext
        let zoo = try #require(try c.fetch(FetchRequest<TestZoo>(predicate: #Predicate { $0.name == "San Diego Zoo" })).first)
        let zooID = zoo.objectID
        let byName = [SortDescriptor(\TestAnimal.commonName)]
        #expect(
            try c.fetch(FetchRequest<TestAnimal>(predicate: #Predicate { $0.zoos.contains { $0.objectID == zooID } }, sortBy: byName))
                .map(\.commonName) == ["Gorilla", "Spider Monkey"])
        #expect(
            try c.fetch(
                FetchRequest<TestAnimal>(
                    predicate: #Predicate { $0.zoos.contains { $0.name.starts(with: "Lowry") } },
                    sortBy: byName)
            ).map(\.commonName) == ["Manatee", "Spider Monkey"])
        let primates = try #require(try c.fetch(FetchRequest<TestClassification>(predicate: #Predicate { $0.order == "Primates" })).first)
        let primatesID = primates.objectID
        #expect(try c.count(for: FetchRequest<TestAnimal>(predicate: #Predicate { $0.classification?.objectID == primatesID })) == 2)
        #expect(
            try c.fetch(FetchRequest<TestAnimal>(predicate: #Predicate { $0.zoos.isEmpty }, sortBy: byName))
                .map(\.commonName) == ["Ocelot"])
        #expect(
            try c.fetch(FetchRequest<TestAnimal>(predicate: #Predicate { $0.zoos.count > 1 }, sortBy: byName))
                .map(\.commonName) == ["Spider Monkey"])
        let busy = FetchRequest<TestClassification>(predicate: #Predicate { $0.animals.count >= 2 })
        #expect(try c.fetch(busy).map(\.order) == ["Primates"])
        // Through a to-one first.
        let primateZoos = FetchRequest<TestAnimal>(predicate: #Predicate { $0.classification!.animals.count == 2 }, sortBy: byName)
        #expect(try c.fetch(primateZoos).map(\.commonName) == ["Gorilla", "Spider Monkey"])
    }
}
