import FolioTestSupport
import Foundation
import Testing

@testable import FolioResults

/// Each phase of a batch on its own: what a batch's classification,
/// section placement and report builder make of a known engine and batch,
/// without the other phases (``EngineContractTests`` checks them together).
@Suite struct EngineBatchPhaseTests {
    typealias Engine = ResultsEngine<Int, String, String>
    typealias Change = ResultsRowChange<Int, String, String>

    /// A: Ant 1, Asp 2; B: Bee 3, Bug 4, Elk 5.
    func engine() -> Engine {
        let engine = Engine()
        engine.load([
            ResultsRow(id: 1, key: "Ant", section: "A"), ResultsRow(id: 2, key: "Asp", section: "A"),
            ResultsRow(id: 3, key: "Bee", section: "B"), ResultsRow(id: 4, key: "Bug", section: "B"),
            ResultsRow(id: 5, key: "Elk", section: "B"),
        ])
        return engine
    }

    func set(_ id: Int, _ key: String, _ section: String, changed: Bool = true) -> Change {
        Change(id: id, row: ResultsRow(id: id, key: key, section: section), objectChanged: changed)
    }

    func gone(_ id: Int) -> Change { Change(id: id, row: nil, objectChanged: true) }

    /// One change of each kind: changed in place, re-keyed within its
    /// section, deleted, moved to a new section, new, gone but never there,
    /// and unchanged.
    var batch: [Change] {
        [
            set(1, "Ant", "A"), set(2, "Axe", "A", changed: false), gone(3), set(4, "Cat", "C"), set(6, "Dog", "D"), gone(7),
            set(5, "Elk", "B", changed: false),
        ]
    }

    @Test func classificationSaysWhatEachChangeDoesAndEditsNothing() {
        let engine = engine()
        let generation = engine.generation
        let a = engine.stores["A"]!.slot, b = engine.stores["B"]!.slot
        let batch = engine.classify(self.batch)
        #expect(batch.inPlace.map(\.change) == [0] && batch.inPlace.map(\.slot) == [a])
        #expect(batch.deleted.map(\.change) == [2] && batch.deleted.map(\.slot) == [b])
        #expect(batch.arrivals.map(\.change) == [1, 3, 4])
        #expect(batch.arrivals.map(\.from) == [a, b, -1])
        #expect(batch.arrivals[0].handle >= 0, "a row re-keyed within its section keeps its node")
        #expect(batch.arrivals[1].handle == -1 && batch.arrivals[2].handle == -1)
        #expect(batch.edits.map(\.store.section) == ["A", "B"])
        let editOfA = batch.editOfSlot[Int(a)]!, editOfB = batch.editOfSlot[Int(b)]!
        #expect(editOfA.staying.map(\.change) == [0])
        #expect(editOfA.departing.map(\.change) == [1] && editOfA.departing.map(\.moving) == [true])
        #expect(editOfB.departing.map(\.change) == [2, 3] && editOfB.departing.map(\.moving) == [false, false])
        #expect(batch.edits.allSatisfy { $0.arriving.isEmpty })
        #expect(engine.generation == generation && engine.count == 5 && engine.numberOfSections == 2)
        engine.checkInvariants()
    }

    @Test func placementGivesEachArrivalItsSectionAndMakesTheNewOnes() {
        let engine = engine()
        let a = engine.stores["A"]!.slot, b = engine.stores["B"]!.slot
        var batch = engine.classify(self.batch)
        let placement = engine.place(self.batch, &batch)
        #expect(placement.oldSections.map(\.section) == ["A", "B"] && placement.oldRanks == [0, 1])
        #expect(placement.insertedStores.map(\.section) == ["C", "D"])
        let c = engine.stores["C"]!.slot, d = engine.stores["D"]!.slot
        #expect(placement.inserted.map(\.change) == [4] && placement.inserted.map(\.slot) == [d])
        #expect(placement.relocated.map(\.change) == [1, 3])
        #expect(placement.relocated.map(\.from) == [a, b] && placement.relocated.map(\.to) == [a, c])
        #expect(batch.edits.map(\.store.section) == ["A", "B", "C", "D"])
        #expect(batch.editOfSlot[Int(a)]!.arriving.map(\.entry.key) == ["Axe"])
        #expect(batch.editOfSlot[Int(c)]!.arriving.map(\.entry.id) == [4])
        #expect(batch.editOfSlot[Int(d)]!.arriving.map(\.change) == [4])
    }

    @Test func settlingDropsEmptiedSectionsButNotTheFixedOne() {
        for fixed in [nil, "A"] as [String?] {
            let engine = Engine(fixedSection: fixed)
            engine.load([ResultsRow(id: 1, key: "Ant", section: "A")])
            let changes = [gone(1)]
            var batch = engine.classify(changes)
            let placement = engine.place(changes, &batch)
            let rows = Engine.UnsafeBatchRows(count: changes.count)
            defer { rows.deallocate() }
            engine.perform(batch.edits, rows: rows, changes: changes.count)
            engine.learnLocations(changes, batch)
            var sectionChanges: [SectionChange<String>] = []
            let indexes = engine.settleSections(batch, placement, changes: &sectionChanges)
            let slot = Int(batch.edits[0].store.slot)
            #expect(indexes.old[slot] == 0)
            #expect(indexes.isGone[slot] == (fixed == nil))
            #expect(sectionChanges.map(\.description) == (fixed == nil ? ["delete section 0 (A)"] : []))
            #expect(engine.numberOfSections == (fixed == nil ? 0 : 1))
            engine.checkInvariants()
        }
    }

    /// Two old sections (slots 0 and 1, indexes 0 and 1), the second gone,
    /// and a new one (slot 2, index 1); rows given by hand.
    @Test func theReportBuilderDecidesMovesAndOrdersTheReport() {
        var indexes = Engine.SectionIndexes(slots: 3)
        indexes.old = [0, 1, -1]
        indexes.new = [0, -1, 1]
        indexes.isGone = [false, true, false]
        indexes.isNew = [false, false, true]
        let rows = Engine.UnsafeBatchRows(count: 7)
        defer { rows.deallocate() }
        // (change, old row, new row)
        for (change, old, new) in [(0, 4, -1), (1, -1, 2), (2, 3, 3), (3, 0, 5), (4, 1, 0), (5, 2, 2), (6, 0, 1)] as [(Int, Int32, Int32)] {
            rows.old[change] = old
            rows.new[change] = new
        }
        var report = Engine.ChangeReportBuilder(
            sections: indexes, rows: rows, deleted: [(0, 0)], inserted: [(1, 2)], inPlace: [(2, 0)])
        // 3 moves within section 0 and stays; 4 moves within it; 5 keeps its path;
        // 6 leaves the gone section for the new one.
        let relocations = report.relocations([(3, 0, 0), (4, 0, 0), (5, 0, 0), (6, 1, 2)])
        #expect(relocations.map(\.oldRow) == [0, 1, 2, 0] && relocations.map(\.newRow) == [5, 0, 2, 1])
        report.add(relocations, staying: [true, false, false, false])
        var sources: [Int32] = []
        let ids = [10, 11, 12, 13, 14, 15, 16]
        let built = report.build(
            sectionChanges: [SectionChange(type: .insert, index: 1, section: "N"), SectionChange(type: .delete, index: 1, section: "G")],
            ids: ids, sources: &sources)
        #expect(built.sectionChanges.map(\.description) == ["delete section 1 (G)", "insert section 1 (N)"])
        #expect(
            built.objectChanges.map(\.description) == [
                "delete 15 [0, 2]", "delete 10 [0, 4]", "delete 16 [1, 0]",
                "insert 15 [0, 2]", "insert 16 [1, 1]", "insert 11 [1, 2]",
                "move 14 [0, 1] -> [0, 0]",
                "update 13 [0, 0] -> [0, 5]", "update 12 [0, 3] -> [0, 3]",
            ])
        #expect(sources.count == built.objectChanges.count)
        #expect(zip(sources, built.objectChanges).allSatisfy { ids[Int($0.0)] == $0.1.id })
    }
}
