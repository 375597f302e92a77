import FolioStore
import Synchronization
import Testing

/// A note that counts its live instances, to see whether key path probes outlive their use.
final class CountedNote: ManagedObject {
    static let alive = Atomic<Int>(0)
    @Managed var title: String
    @Managed var parent: CountedNote?
    @Managed var children: Set<CountedNote>

    required init(context: ObjectContext) {
        Self.alive.add(1, ordering: .relaxed)
        super.init(context: context)
    }

    deinit { Self.alive.subtract(1, ordering: .relaxed) }

    override class var entity: EntityDescription {
        EntityDescription(
            CountedNote.self,
            properties: [
                .attribute(\CountedNote.title, "title", defaultValue: ""),
                .toOne(\CountedNote.parent, "parent", inverse: \CountedNote.children),
                .toMany(\CountedNote.children, "children", inverse: \CountedNote.parent),
            ])
    }
}

/// Resolving a key path evaluates it on probe objects; none may outlive it
/// (each probe refers to the recorder that listed it).
@Suite struct KeyPathProbeLifetimeTests {
    @Test func resolvingAKeyPathLeavesNoProbeAlive() throws {
        let schema = Schema([CountedNote.self])
        let entity = try #require(schema.entity(named: "CountedNote"))
        _ = try entity.properties(along: \CountedNote.title)
        _ = try entity.properties(along: \CountedNote.parent?.title)
        #expect(CountedNote.alive.load(ordering: .relaxed) == 0)
    }
}
