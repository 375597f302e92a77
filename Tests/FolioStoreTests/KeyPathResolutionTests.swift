import FolioTestSupport
import Foundation
import Testing

@testable import FolioStore

// Computed properties in another module than the entities: not stored, so
// never a fetch's, sort's or filter's key.
extension TestAnimal {
    var loudName: String { commonName.uppercased() }
    var nameAndHabitat: String { commonName + habitat }
    var alwaysThree: Int { 3 }
    var legCount: Int { legs + 0 }
}

extension TestClassification {
    var loudOrder: String { order.uppercased() }
}

/// Finding 1: key paths resolve to properties by value (never by their
/// printed text, whose getter tokens differ between debug and release
/// builds), through to-ones, optional chains and force unwraps, and from any
/// module. `StoreReleaseTests` runs the same checks in a release build.
@Suite struct KeyPathResolutionTests {
    let schema = StoreTestSchema.make()

    func chain(_ keyPath: AnyKeyPath, of entity: String) throws -> [String] {
        try #require(schema.entity(named: entity)).properties(along: keyPath).map { "\($0.entity.name).\($0.name)" }
    }

    func refusal(_ keyPath: AnyKeyPath, of entity: String) -> String? {
        do {
            _ = try chain(keyPath, of: entity)
            return nil
        } catch let error as StoreError {
            return error.description
        } catch {
            return "\(error)"
        }
    }

    @Test func declaredKeyPathsResolveToTheirProperty() throws {
        #expect(try chain(\TestAnimal.commonName, of: "TestAnimal") == ["TestAnimal.commonName"])
        #expect(try chain(\TestAnimal.classification, of: "TestAnimal") == ["TestAnimal.classification"])
        #expect(try chain(\TestAnimal.zoos, of: "TestAnimal") == ["TestAnimal.zoos"])
        #expect(try chain(\TestItem.point, of: "TestItem") == ["TestItem.point"])
    }

    @Test func anOptionalChainResolvesThroughTheToOne() throws {
        #expect(
            try chain(\TestAnimal.classification?.order, of: "TestAnimal") == ["TestAnimal.classification", "TestClassification.order"])
        #expect(
            try chain(\TestAnimal.classification?.family, of: "TestAnimal") == ["TestAnimal.classification", "TestClassification.family"])
        #expect(try chain(\TestStep.guide?.title, of: "TestStep") == ["TestStep.guide", "TestGuide.title"])
    }

    @Test func forceUnwrappedAndRequiredToOnesResolve() throws {
        #expect(
            try chain(\TestAnimal.classification!.order, of: "TestAnimal") == ["TestAnimal.classification", "TestClassification.order"])
        #expect(try chain(\TestCrew.ship.name, of: "TestCrew") == ["TestCrew.ship", "TestShip.name"])
        #expect(try chain(\TestCrew.ship, of: "TestCrew") == ["TestCrew.ship"])
    }

    @Test func keyPathsWrittenInTheEntitiesModuleResolveHere() throws {
        #expect(
            try chain(StoreTestKeyPaths.classificationOrder, of: "TestAnimal") == ["TestAnimal.classification", "TestClassification.order"])
        #expect(
            try chain(StoreTestKeyPaths.forcedClassificationOrder, of: "TestAnimal") == [
                "TestAnimal.classification", "TestClassification.order",
            ])
        #expect(try chain(StoreTestKeyPaths.shipName, of: "TestCrew") == ["TestCrew.ship", "TestShip.name"])
    }

    @Test func computedPropertiesAreRefusedInSwiftTerms() throws {
        let cases: [(AnyKeyPath, String)] = [
            (\TestAnimal.loudName, "TestAnimal.commonName"),
            (\TestAnimal.nameAndHabitat, "TestAnimal.commonName, TestAnimal.habitat"),
            (\TestAnimal.alwaysThree, "no stored property"),
            (\TestAnimal.classification?.loudOrder, "TestClassification.order"),
            (\TestAnimal.commonName.count, "TestAnimal.commonName"),
            (\TestItem.point?.x, "TestItem.point"),
        ]
        for (keyPath, reads) in cases {
            let message = try #require(
                refusal(keyPath, of: keyPath is PartialKeyPath<TestItem> ? "TestItem" : "TestAnimal"), "\(keyPath) resolved")
            #expect(message.contains("is not a stored property of Test"), "\(message)")
            #expect(message.contains(reads), "\(message)")
            #expect(!message.contains("0x"), "\(message)")
        }
        let nested = try #require(refusal(\TestAnimal.classification?.loudOrder, of: "TestAnimal"))
        #expect(nested.hasPrefix("\\TestAnimal.classification.<computed String?>"), "\(nested)")
    }

    @Test func aComputedPropertyThatReturnsAStoredValueUnchangedIsThatProperty() throws {
        // Indistinguishable from the property by what it does, and fetching by it sorts as it reads.
        #expect(try chain(\TestAnimal.legCount, of: "TestAnimal") == ["TestAnimal.legs"])
    }

    @Test func aKeyPathOfAnotherEntityIsRefused() throws {
        let message = try #require(refusal(\TestZoo.name, of: "TestAnimal"))
        #expect(message.contains("TestZoo") && message.contains("TestAnimal"), "\(message)")
    }

    @MainActor
    @Test func fetchesSortByComposedKeyPaths() throws {
        let container = try PersistentContainer(schema: schema, path: nil)
        let c = container.viewContext
        for (name, order) in [("Okapi", "Artiodactyla"), ("Bat", "Chiroptera"), ("Aardvark", "Tubulidentata")] {
            let cls = TestClassification(context: c)
            cls.order = order
            cls.family = name
            let animal = TestAnimal(context: c)
            animal.commonName = name
            animal.classification = cls
        }
        for (crew, ship) in [("Uhura", "Bounty"), ("Kirk", "Argo")] {
            let s = TestShip(context: c)
            s.name = ship
            let member = TestCrew(context: c)
            member.name = crew
            member.ship = s
        }
        try c.save()
        let byOrder = try c.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\TestAnimal.classification?.order, order: .reverse)]))
        #expect(byOrder.map(\.commonName) == ["Aardvark", "Bat", "Okapi"])
        let forced = try c.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\TestAnimal.classification!.order)]))
        #expect(forced.map(\.commonName) == ["Okapi", "Bat", "Aardvark"])
        let crew = try c.fetch(FetchRequest<TestCrew>(sortBy: [SortDescriptor(\TestCrew.ship.name)]))
        #expect(crew.map(\.name) == ["Kirk", "Uhura"])
        #expect(try c.keyValues(of: byOrder[0], keyPaths: [\TestAnimal.classification?.order]) == [.text("Tubulidentata")])
        #expect(throws: StoreError.self) {
            _ = try c.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\TestAnimal.loudName)]))
        }
    }

    @Test func manyThreadsResolvingAtOnceAgree() async throws {
        let schema = StoreTestSchema.make()
        let entity = try #require(schema.entity(named: "TestAnimal"))
        let results = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask { (try? entity.properties(along: \TestAnimal.classification?.order).map(\.name)) ?? [] }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: ["classification", "order"], count: 8))
    }
}
