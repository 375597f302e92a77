import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// An attribute's rules hold for every value type, whether its check was
/// made for the concrete type (String, Int, Double) or generically: a
/// batch insert and a save refuse a broken one, naming the key.
@MainActor
@Suite struct ValidationRuleTypesTests {
    static func refusal(_ body: () throws -> Void) -> String? {
        do { try body() } catch let StoreError.validation(_, key, _) { return key } catch { return "\(error)" }
        return nil
    }

    @Test func eachTypesRulesRefuseABrokenValueInABatchAndASave() throws {
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: nil)
        let c = container.viewContext
        #expect(Self.refusal { try c.execute(BatchInsertRequest<TestAnimal>(objects: [["commonName": ""]])) } == "commonName")
        #expect(Self.refusal { try c.execute(BatchInsertRequest<TestAnimal>(objects: [["commonName": "Ant", "legs": 1001]])) } == "legs")
        #expect(Self.refusal { try c.execute(BatchInsertRequest<TestItem>(objects: [["ratio": 2e9]])) } == "ratio")
        #expect(Self.refusal { try c.execute(BatchInsertRequest<TestAnimal>(objects: [["commonName": "Ant", "legs": 6]])) } == nil)
        #expect(Self.refusal { try c.execute(BatchInsertRequest<TestItem>(objects: [["ratio": -5.5]])) } == nil)
        let item = TestItem(context: c)
        item.ratio = -2e9
        #expect(Self.refusal { try c.save() } == "ratio")
        item.ratio = 1
        let animal = TestAnimal(context: c)
        animal.commonName = ""
        #expect(Self.refusal { try c.save() } == "commonName")
        animal.commonName = "Bee"
        #expect(Self.refusal { try c.save() } == nil)
    }
}
