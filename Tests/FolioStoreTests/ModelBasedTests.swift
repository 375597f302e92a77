import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// A plain in-memory reference for the randomised context test.
struct ReferenceAnimal: Equatable, Comparable {
    var name: String
    var legs: Int
    var habitat: String
    var order: String?
    var zoos: Set<String> = []
    static func < (a: ReferenceAnimal, b: ReferenceAnimal) -> Bool { a.name < b.name }
}

struct ReferenceState: Equatable {
    var animals: [String: ReferenceAnimal] = [:]
    var orders: Set<String> = []
}

@MainActor
@Suite struct ModelBasedTests {
    @Test(arguments: TestBackend.allCases)
    func randomContextOperationsMatchAReference(_ backend: TestBackend) async throws {
        let seed = StoreSplitMix64.seedFromEnvironment()
        print("seed:", seed, "backend:", backend)
        var rng = StoreSplitMix64(seed: seed)
        let store = try await backend.makeStore()
        let container = try PersistentContainer(schema: StoreTestSchema.make(), store: store.description)
        let c = container.viewContext
        var current = ReferenceState(), committed = ReferenceState()
        var undo: [ReferenceState] = [], redo: [ReferenceState] = []
        var next = 0
        let trace = ProcessInfo.processInfo.environment["FOLIO_TRACE"] != nil

        func animals() throws -> [TestAnimal] { Array(try c.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)]))) }
        func classifications() throws -> [TestClassification] {
            Array(try c.fetch(FetchRequest<TestClassification>(sortBy: [SortDescriptor(\.order)])))
        }
        func change(_ body: () -> Void) {
            undo.append(current)
            redo = []
            c.undoGroup(body)
        }

        let zoos = ["Lowry Park Zoo", "San Diego Zoo"].map { name -> TestZoo in
            let z = TestZoo(context: c); z.name = name; return z
        }
        try c.save()

        for step in 0..<1500 {
            let live = try animals(), kinds = try classifications()
            var op = Int.random(in: 0..<100, using: &rng)
            if live.isEmpty && op >= 15 && op < 55 { op = 0 }
            // Now and then a batch request instead, from the stored state.
            if Int.random(in: 0..<12, using: &rng) == 0 {
                let what = try Self.batchStep(c, &rng, &current, next: &next)
                if trace { print("step", step, what) }
                committed = current
                undo = []
                redo = []
                op = -1
            }
            switch op {
            case -1: break
            case 0..<15:  // insert an animal
                next += 1
                let name = "A\(next)", legs = Int.random(in: 0...8, using: &rng)
                let kind = Bool.random(using: &rng) ? kinds.randomElement(using: &rng) : nil
                change {
                    let a = TestAnimal(context: c)
                    a.commonName = name
                    a.legs = legs
                    a.classification = kind
                }
                current.animals[name] = ReferenceAnimal(name: name, legs: legs, habitat: "", order: kind?.order)
            case 15..<35:  // update an animal
                let a = live.randomElement(using: &rng)!
                let legs = Int.random(in: 0...8, using: &rng), habitat = ["", "Forest", "River"].randomElement(using: &rng)!
                let kind = Bool.random(using: &rng) ? kinds.randomElement(using: &rng) : nil
                change {
                    a.legs = legs
                    a.habitat = habitat
                    if Bool.random(using: &rng) { a.classification = kind; current.animals[a.commonName]!.order = kind?.order }
                }
                current.animals[a.commonName]!.legs = legs
                current.animals[a.commonName]!.habitat = habitat
            case 35..<45:  // delete an animal
                let a = live.randomElement(using: &rng)!
                change { c.delete(a) }
                current.animals[a.commonName] = nil
            case 45..<52:  // insert a classification
                let order = ["Sirenia", "Primates", "Carnivora", "Rodentia", "Chiroptera"].randomElement(using: &rng)!
                if current.orders.contains(order) { continue }
                change {
                    let k = TestClassification(context: c)
                    k.order = order
                    k.family = order + "idae"
                }
                current.orders.insert(order)
            case 52..<56:  // delete a classification: cascades to its animals
                guard let k = kinds.randomElement(using: &rng) else { continue }
                change { c.delete(k) }
                current.orders.remove(k.order)
                current.animals = current.animals.filter { $0.value.order != k.order }
            case 56..<62:  // join or leave a zoo, from either side
                guard let a = live.randomElement(using: &rng) else { continue }
                let z = zoos.randomElement(using: &rng)!
                let joining = !a.zoos.contains(z)
                change {
                    if Bool.random(using: &rng) {
                        if joining { a.zoos.insert(z) } else { a.zoos.remove(z) }
                    } else {
                        if joining { z.animals.insert(a) } else { z.animals.remove(a) }
                    }
                }
                if joining {
                    current.animals[a.commonName]!.zoos.insert(z.name)
                } else {
                    current.animals[a.commonName]!.zoos.remove(z.name)
                }
            case 62..<70:
                try c.save()
                committed = current
                undo = []
                redo = []
            case 70..<78:
                c.rollback()
                current = committed
                undo = []
                redo = []
            case 78..<92:
                guard let previous = undo.popLast() else { continue }
                c.undo()
                redo.append(current)
                current = previous
            default:
                guard let following = redo.popLast() else { continue }
                c.redo()
                undo.append(current)
                current = following
            }
            // A change that changed nothing leaves no undo group, here as in the context.
            if op >= 0 && op < 62, let last = undo.last, last == current { undo.removeLast() }
            if trace { print("step", step, "op", op, "undo", undo.count, "redo", redo.count, current.animals["A23"] as Any) }
            c.checkInvariants()
            let got = try animals().map {
                ReferenceAnimal(
                    name: $0.commonName, legs: $0.legs, habitat: $0.habitat, order: $0.classification?.order,
                    zoos: Set($0.zoos.map(\.name)))
            }
            #expect(got == current.animals.values.sorted(), "step \(step) (op \(op)), seed \(seed), \(backend)")
            #expect(Set(try classifications().map(\.order)) == current.orders, "step \(step), seed \(seed)")
            let fourLegged = try c.count(for: FetchRequest<TestAnimal>(predicate: #Predicate { $0.legs >= 4 }))
            #expect(fourLegged == current.animals.values.filter { $0.legs >= 4 }.count, "step \(step), seed \(seed)")
            for k in try classifications() {
                #expect(
                    Set(k.animals.map(\.commonName)) == Set(current.animals.values.filter { $0.order == k.order }.map(\.name)),
                    "step \(step): \(k.order).animals, seed \(seed)")
            }
            for z in zoos {
                #expect(
                    Set(z.animals.map(\.commonName)) == Set(current.animals.values.filter { $0.zoos.contains(z.name) }.map(\.name)),
                    "step \(step): \(z.name).animals, seed \(seed)")
            }
            if got != current.animals.values.sorted() { return }
            // Each step gives the main actor back: on PostgreSQL the steps
            // take minutes, which every other main-actor test would wait out.
            await Task.yield()
        }
        // What was saved is what a fresh context reads.
        try c.save()
        let stored = try container.newBackgroundContext().performAndWait { bg in
            try bg.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)])).map {
                ReferenceAnimal(
                    name: $0.commonName, legs: $0.legs, habitat: $0.habitat, order: $0.classification?.order,
                    zoos: Set($0.zoos.map(\.name)))
            }
        }
        #expect(stored == current.animals.values.sorted())
    }
}
