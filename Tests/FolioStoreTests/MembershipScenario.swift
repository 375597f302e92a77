import FolioStore
import FolioTestSupport
import Foundation

/// The random steps of ``MembershipMergeTests``: a store of zoos, animals,
/// classifications, guides with ordered steps and unrelated items; another
/// context's saves; and this context's reads and unsaved changes.
enum MembershipScenario {
    /// A few objects of every kind, saved.
    static func seed(_ context: ObjectContext) throws {
        let classes = (0..<3).map { i -> TestClassification in
            let c = TestClassification(context: context)
            c.order = "order \(i)"
            c.family = "family"
            return c
        }
        let zoos = (0..<5).map { i -> TestZoo in
            let z = TestZoo(context: context)
            z.name = "zoo \(i)"
            return z
        }
        for i in 0..<12 {
            let a = TestAnimal(context: context)
            a.commonName = "animal \(i)"
            a.classification = classes[i % 3]
            a.zoos = [zoos[i % 5], zoos[(i * 2) % 5]]
        }
        for g in 0..<3 {
            let guide = TestGuide(context: context)
            guide.title = "guide \(g)"
            guide.steps = (0..<3).map { s in
                let step = TestStep(context: context)
                step.label = "step \(g).\(s)"
                return step
            }
        }
        for i in 0..<3 {
            let item = TestItem(context: context)
            item.text = "item \(i)"
        }
        try context.save()
    }

    static func all<T: ManagedObject>(_ context: ObjectContext, _ type: T.Type) throws -> [T] {
        try context.fetch(FetchRequest<T>()).filter { !$0.isDeleted }.sorted { $0.objectID < $1.objectID }
    }

    static func pick<T: ManagedObject, G: RandomNumberGenerator>(_ objects: [T], _ random: inout G) -> T? {
        objects.filter { !$0.isDeleted }.randomElement(using: &random)
    }

    /// One to three random changes by another context, saved; false when they changed nothing.
    static func randomSave(_ context: ObjectContext, seed: UInt64) throws -> Bool {
        var r = ResultsRandom(seed: seed)
        let animals = try all(context, TestAnimal.self), zoos = try all(context, TestZoo.self)
        let classes = try all(context, TestClassification.self), guides = try all(context, TestGuide.self)
        let steps = try all(context, TestStep.self), items = try all(context, TestItem.self)
        for _ in 0..<Int.random(in: 1...3, using: &r) {
            switch Int.random(in: 0..<14, using: &r) {
            case 0, 1: pick(items, &r)?.count += 1
            case 2: pick(animals, &r)?.habitat = "habitat \(r.next() % 100)"
            case 3:
                let a = TestAnimal(context: context)
                a.commonName = "animal \(r.next())"
                a.classification = pick(classes, &r)
                if let z = pick(zoos, &r) { a.zoos = [z] }
            case 4: if let a = pick(animals, &r) { context.delete(a) }
            case 5: pick(animals, &r)?.classification = pick(classes, &r)
            case 6:
                guard let z = pick(zoos, &r), let a = pick(animals, &r) else { break }
                if z.animals.contains(a) { z.animals.remove(a) } else { z.animals.insert(a) }
            case 7: if let g = pick(guides, &r) { g.steps = g.steps.shuffled(using: &r) }
            case 8:
                let s = TestStep(context: context)
                s.label = "step \(r.next())"
                s.guide = pick(guides, &r)
            case 9: if let s = pick(steps, &r) { context.delete(s) }
            case 10: pick(steps, &r)?.guide = pick(guides, &r)
            case 11:
                let z = TestZoo(context: context)
                z.name = "zoo \(r.next())"
                z.animals = Set([pick(animals, &r), pick(animals, &r)].compactMap { $0 })
            case 12:
                if r.next() % 3 == 0, let c = pick(classes, &r) {
                    context.delete(c)
                } else {
                    let c = TestClassification(context: context)
                    c.order = "order \(r.next())"
                    c.family = "family"
                }
            default:
                if r.next() % 2 == 0, let g = pick(guides, &r) {
                    context.delete(g)
                } else {
                    let g = TestGuide(context: context)
                    g.title = "guide \(r.next())"
                }
            }
        }
        guard context.hasChanges else { return false }
        try context.save()
        return true
    }

    /// Random reads (which load lists) and unsaved changes, new objects
    /// included; returns the objects to hold until the next round.
    static func changeUnsaved<G: RandomNumberGenerator>(_ context: ObjectContext, _ r: inout G, holding: [ManagedObject]) throws
        -> [ManagedObject]
    {
        let animals = try all(context, TestAnimal.self), zoos = try all(context, TestZoo.self)
        let classes = try all(context, TestClassification.self), guides = try all(context, TestGuide.self)
        for _ in 0..<Int.random(in: 0...4, using: &r) {
            switch Int.random(in: 0..<12, using: &r) {
            case 0: _ = pick(animals, &r)?.zoos
            case 1: _ = pick(zoos, &r)?.animals
            case 2: _ = pick(classes, &r)?.animals
            case 3: _ = pick(guides, &r)?.steps
            case 4: pick(animals, &r)?.classification = pick(classes, &r)
            case 5:
                guard let z = pick(zoos, &r), let a = pick(animals, &r) else { break }
                if a.zoos.contains(z) { a.zoos.remove(z) } else { a.zoos.insert(z) }
            case 6: if let g = pick(guides, &r), g.steps.count > 1 { g.steps = g.steps.shuffled(using: &r) }
            case 7:
                guard let g = pick(guides, &r) else { break }
                let s = TestStep(context: context)
                s.label = "unsaved step"
                g.steps.append(s)
            case 8:
                let z = TestZoo(context: context)
                z.name = "unsaved zoo \(r.next())"
                z.animals = Set([pick(animals, &r)].compactMap { $0 })
            case 9:
                let g = TestGuide(context: context)
                g.title = "unsaved guide"
                if let other = pick(guides, &r), let s = other.steps.first { g.steps = [s] }
            case 10: if let g = pick(guides, &r), !g.steps.isEmpty { g.steps.removeLast() }
            default: if r.next() % 4 == 0, let a = pick(animals, &r) { context.delete(a) }
            }
        }
        // Some objects are let go (their lists with them), the rest held as a screen holds its rows.
        let kept = holding.filter { _ in r.next() % 4 != 0 }
        return kept + animals + zoos + classes + guides
    }
}
