import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Negative numbers and arithmetic in predicates, on both backends: each
/// store's answer is the one Swift's own evaluation of the predicate gives
/// for the same rows (random values, negative and positive, replayable from
/// `FOLIO_SEED`).
@MainActor
@Suite struct PredicateNumberTests {
    @Test(arguments: TestBackend.allCases)
    func negativeLiteralsAndArithmeticSelectWhatSwiftSelects(_ backend: TestBackend) async throws {
        var random = ResultsRandom.fromEnvironment()
        print("PredicateNumberTests seed:", random.seed, backend)
        let store = try await backend.makeStore()
        let container = try PersistentContainer(schema: StoreTestSchema.make(), store: store.description)
        let context = container.viewContext
        for n in 0..<60 {
            let item = TestItem(context: context)
            item.text = "i\(n)"
            item.count = Int.random(in: -6...6, using: &random)
            item.big = Int64.random(in: -9...9, using: &random)
            item.ratio = Double(Int.random(in: -8...8, using: &random)) / 2
        }
        try context.save()
        let k = Int.random(in: -4...4, using: &random)
        let r = Double(Int.random(in: -6...6, using: &random)) / 2
        let b = Int64.random(in: -5...5, using: &random)
        let listed = [-1, -k]  // an array literal of negatives does not expand in #Predicate: a captured array
        let predicates: [(String, Predicate<TestItem>)] = [
            ("count == -1", #Predicate { $0.count == -1 }),
            ("count < -2", #Predicate { $0.count < -2 }),
            ("count >= -3 && count <= -1", #Predicate { $0.count >= -3 && $0.count <= -1 }),
            ("big != -7", #Predicate { $0.big != -7 }),
            ("big > -b", #Predicate { $0.big > -b }),
            ("ratio == -2.5", #Predicate { $0.ratio == -2.5 }),
            ("ratio < -1.5", #Predicate { $0.ratio < -1.5 }),
            ("ratio > -r", #Predicate { $0.ratio > -r }),
            ("count == -k", #Predicate { $0.count == -k }),
            ("-count > k", #Predicate { -$0.count > k }),
            ("-(count + k) < -1", #Predicate { -($0.count + k) < -1 }),
            ("count + k >= -1", #Predicate { $0.count + k >= -1 }),
            ("count - -3 > k", #Predicate { $0.count - -3 > k }),
            ("count * -2 < k", #Predicate { $0.count * -2 < k }),
            ("ratio * -1.5 + r <= -0.5", #Predicate { $0.ratio * -1.5 + r <= -0.5 }),
            ("big - b == -big", #Predicate { $0.big - b == -$0.big }),
            ("listed.contains(count)", #Predicate { listed.contains($0.count) }),
            ("count == -1 || ratio < -1.0", #Predicate { $0.count == -1 || $0.ratio < -1.0 }),
            ("!(count > -2)", #Predicate { !($0.count > -2) }),
        ]
        let all = try context.fetch(FetchRequest<TestItem>())
        #expect(all.count == 60)
        for (label, predicate) in predicates {
            await Task.yield()  // the main actor is shared by every main-actor suite
            let expected = Set(try all.filter { try predicate.evaluate($0) }.map(\.text))
            let request = FetchRequest<TestItem>(predicate: predicate)
            let fetched = try context.fetch(request).map(\.text)
            #expect(Set(fetched) == expected, "\(label) with k = \(k), r = \(r), b = \(b) (seed \(random.seed))")
            #expect(fetched.count == expected.count, "\(label): each row once")
            #expect(try context.count(for: request) == expected.count, "\(label): the count agrees")
        }
    }

    @Test(arguments: TestBackend.allCases)
    func aConstantWithNoNegationIsAClearError(_ backend: TestBackend) async throws {
        let store = try await backend.makeStore()
        let container = try PersistentContainer(schema: StoreTestSchema.make(), store: store.description)
        let smallest = Int.min
        let request = FetchRequest<TestItem>(predicate: #Predicate { $0.count == -smallest })
        #expect {
            _ = try container.viewContext.fetch(request)
        } throws: { error in
            "\(error)".contains("predicate not supported") && "\(error)".contains("overflows")
        }
    }
}
