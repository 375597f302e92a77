import FolioStore
import FolioTestSupport
import Foundation
import Testing

extension ModelBasedTests {
    /// A random batch request on the context's store, and the same change
    /// made to the reference. Unsaved changes are saved first (a batch works
    /// on what is stored) and undo starts afresh after it, so the reference
    /// is the stored state. Refused requests must leave it untouched.
    static func batchStep(_ c: ObjectContext, _ rng: inout StoreSplitMix64, _ state: inout ReferenceState, next: inout Int) throws -> String
    {
        if c.hasChanges { try c.save() }
        c.undoManager = UndoStack()
        let x = Int.random(in: 0...8, using: &rng)
        let habitat = ["", "Forest", "River", "Cave"].randomElement(using: &rng)!
        switch Int.random(in: 0..<7, using: &rng) {
        case 0:
            let n = Int.random(in: 0...6, using: &rng)
            var rows: [[String: Any]] = []
            for _ in 0..<n {
                next += 1
                let name = "A\(next)", legs = Int.random(in: 0...8, using: &rng)
                rows.append(["commonName": name, "legs": legs, "habitat": habitat])
                state.animals[name] = ReferenceAnimal(name: name, legs: legs, habitat: habitat, order: nil)
            }
            try c.execute(BatchInsertRequest<TestAnimal>(objects: rows))
            return "batch insert \(n)"
        case 1:
            try c.execute(BatchUpdateRequest<TestAnimal>(predicate: #Predicate { $0.legs >= x }).setting(\.habitat, to: habitat))
            for (name, a) in state.animals where a.legs >= x { state.animals[name]!.habitat = habitat }
            return "batch habitat where legs >= \(x)"
        case 2:
            let legs = Int.random(in: 0...8, using: &rng)
            try c.execute(BatchUpdateRequest<TestAnimal>(predicate: #Predicate { $0.legs == x }).setting(\.legs, to: legs))
            for (name, a) in state.animals where a.legs == x { state.animals[name]!.legs = legs }
            return "batch legs \(x) → \(legs)"
        case 3:
            try c.execute(BatchDeleteRequest<TestAnimal>(predicate: #Predicate { $0.legs == x }))
            state.animals = state.animals.filter { $0.value.legs != x }
            return "batch delete legs \(x)"
        case 4:
            // Cascades to the classification's animals.
            guard let order = state.orders.randomElement(using: &rng) else { return "no classification" }
            try c.execute(BatchDeleteRequest<TestClassification>(predicate: #Predicate { $0.order == order }))
            state.orders.remove(order)
            state.animals = state.animals.filter { $0.value.order != order }
            return "batch delete \(order)"
        case 5:
            #expect(throws: StoreError.self) { try c.execute(BatchUpdateRequest<TestAnimal>().setting(\.legs, to: 5000 + x)) }
            return "refused legs"
        default:
            #expect(throws: StoreError.self) { try c.execute(BatchUpdateRequest<TestZoo>().setting(\.name, to: "One Zoo")) }
            return "refused zoo name"
        }
    }
}
