import FolioStore
import Foundation

/// A zoo for store tests: many-to-many with ``TestAnimal``.
public final class TestZoo: ManagedObject {
    @Managed public var name: String
    @Managed public var location: String?
    @Managed public var animals: Set<TestAnimal>

    public override class var entity: EntityDescription {
        EntityDescription(
            TestZoo.self,
            properties: [
                .attribute(\TestZoo.name, "name", unique: true, rules: [.notEmpty]),
                .attribute(\TestZoo.location, "location"),
                .toMany(\TestZoo.animals, "animals", inverse: \TestAnimal.zoos),
            ])
    }
}

/// A classification for store tests: one-to-many with ``TestAnimal``, cascading.
public final class TestClassification: ManagedObject {
    @Managed public var order: String
    @Managed public var family: String
    @Managed public var animals: Set<TestAnimal>

    public override class var entity: EntityDescription {
        EntityDescription(
            TestClassification.self,
            properties: [
                .attribute(\TestClassification.order, "order", indexed: true),
                .attribute(\TestClassification.family, "family"),
                .toMany(\TestClassification.animals, "animals", inverse: \TestAnimal.classification, deleteRule: .cascade),
            ])
    }
}

/// An animal for store tests.
public final class TestAnimal: ManagedObject {
    @Managed public var commonName: String
    @Managed public var habitat: String
    @Managed public var legs: Int
    @Managed public var classification: TestClassification?
    @Managed public var zoos: Set<TestZoo>

    public override class var entity: EntityDescription {
        EntityDescription(
            TestAnimal.self,
            properties: [
                .attribute(\TestAnimal.commonName, "commonName", indexed: true, rules: [.notEmpty]),
                .attribute(\TestAnimal.habitat, "habitat", defaultValue: ""),
                .attribute(\TestAnimal.legs, "legs", defaultValue: 4, rules: [.range(0...1000)]),
                .toOne(\TestAnimal.classification, "classification", inverse: \TestClassification.animals),
                .toMany(\TestAnimal.zoos, "zoos", inverse: \TestZoo.animals),
            ])
    }
}

/// A guide for store tests: an ordered to-many of ``TestStep`` that it owns (deny on delete while non-empty is not used).
public final class TestGuide: ManagedObject {
    @Managed public var title: String
    @Managed public var steps: [TestStep]

    public override class var entity: EntityDescription {
        EntityDescription(
            TestGuide.self,
            properties: [
                .attribute(\TestGuide.title, "title"),
                .toMany(\TestGuide.steps, "steps", inverse: \TestStep.guide, deleteRule: .cascade),
            ])
    }
}

/// A step of a ``TestGuide``; a required to-one.
public final class TestStep: ManagedObject {
    @Managed public var label: String
    @Managed public var guide: TestGuide?

    public override class var entity: EntityDescription {
        EntityDescription(
            TestStep.self,
            properties: [
                .attribute(\TestStep.label, "label"),
                .toOne(\TestStep.guide, "guide", inverse: \TestGuide.steps),
            ])
    }
}

/// A point stored as JSON, to test Codable attributes.
public struct TestPoint: CodableAttributeValue, Equatable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// An item with one attribute of every supported type.
public final class TestItem: ManagedObject {
    @Managed public var text: String
    @Managed public var count: Int
    @Managed public var big: Int64
    @Managed public var ratio: Double
    @Managed public var flag: Bool
    @Managed public var when: Date
    @Managed public var bytes: Data
    @Managed public var uuid: UUID
    @Managed public var note: String?
    @Managed public var score: Double?
    @Managed public var point: TestPoint?

    public override class var entity: EntityDescription {
        EntityDescription(
            TestItem.self,
            properties: [
                .attribute(\TestItem.text, "text", defaultValue: ""),
                .attribute(\TestItem.count, "count", defaultValue: 0),
                .attribute(\TestItem.big, "big", defaultValue: 0),
                .attribute(\TestItem.ratio, "ratio", defaultValue: 0, rules: [.range(-1e9...1e9)]),
                .attribute(\TestItem.flag, "flag", defaultValue: false),
                .attribute(\TestItem.when, "when", defaultValue: Date(timeIntervalSince1970: 0)),
                .attribute(\TestItem.bytes, "bytes", defaultValue: Data()),
                .attribute(\TestItem.uuid, "uuid", defaultValue: UUID(uuidString: "00000000-0000-0000-0000-000000000000")!),
                .attribute(\TestItem.note, "note"),
                .attribute(\TestItem.score, "score"),
                .attribute(\TestItem.point, "point"),
            ])
    }
}

/// A crew member for store tests: a required to-one (``TestShip``), as BuildGuide's unit has its race.
public final class TestCrew: ManagedObject {
    @Managed public var name: String
    @Managed public var ship: TestShip

    public override class var entity: EntityDescription {
        EntityDescription(
            TestCrew.self,
            properties: [
                .attribute(\TestCrew.name, "name", defaultValue: ""),
                .toOne(\TestCrew.ship, "ship", inverse: \TestShip.crew),
            ])
    }
}

/// A ship for store tests, the required target of ``TestCrew/ship``.
public final class TestShip: ManagedObject {
    @Managed public var name: String
    @Managed public var crew: Set<TestCrew>

    public override class var entity: EntityDescription {
        EntityDescription(
            TestShip.self,
            properties: [
                .attribute(\TestShip.name, "name", defaultValue: ""),
                .toMany(\TestShip.crew, "crew", inverse: \TestCrew.ship, deleteRule: .cascade),
            ])
    }
}

/// Composed key paths written in the entities' own module, for tests that
/// resolve key paths written in another module.
public enum StoreTestKeyPaths {
    /// An optional chain through a to-one.
    public static var classificationOrder: PartialKeyPath<TestAnimal> { \TestAnimal.classification?.order }
    /// A force-unwrapped to-one.
    public static var forcedClassificationOrder: PartialKeyPath<TestAnimal> { \TestAnimal.classification!.order }
    /// A required to-one.
    public static var shipName: PartialKeyPath<TestCrew> { \TestCrew.ship.name }

    /// Labelled key paths written here, with their root entity's name.
    public static var cases: [(label: String, entity: String, keyPath: AnyKeyPath)] {
        [
            ("support-optional", "TestAnimal", classificationOrder), ("support-forced", "TestAnimal", forcedClassificationOrder),
            ("support-required", "TestCrew", shipName),
        ]
    }

    /// One line per case: `label<TAB>property.property...` or `label<TAB>refused<TAB>message`,
    /// so a release build's resolutions can be compared with a debug build's.
    public static func report(_ cases: [(label: String, entity: String, keyPath: AnyKeyPath)], in schema: Schema) -> [String] {
        cases.map { label, entity, keyPath in
            do {
                guard let e = schema.entity(named: entity) else { return "\(label)\tno entity \(entity)" }
                return label + "\t" + (try e.properties(along: keyPath)).map(\.name).joined(separator: ".")
            } catch {
                return "\(label)\trefused\t\(error)"
            }
        }
    }
}

/// The schema of all test entities.
///
///     let container = try PersistentContainer(schema: StoreTestSchema.make(), path: nil)
public enum StoreTestSchema {
    /// A new schema with every test entity.
    public static func make(name: String? = nil, version: Int = 1) -> Schema {
        Schema(
            name: name, version: version,
            [
                TestZoo.self, TestClassification.self, TestAnimal.self, TestGuide.self, TestStep.self,
                TestItem.self, TestCrew.self, TestShip.self,
            ])
    }
}
