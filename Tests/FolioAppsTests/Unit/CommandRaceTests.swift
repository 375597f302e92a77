import FolioAppSupport
import FolioStore
import FolioTestSupport
import Foundation
import PlanetsApp
import Testing
import ZootasticApp

/// Finding 9 at the command level: `folio` processes started together
/// decide "does this order have a classification" and "which position is
/// last" inside their write transactions, so six concurrent `zoo add`s with
/// a new order make one classification, and six `planets add`s take six
/// positions.
@Suite(.serialized, .enabled(if: AppProcess.folioBinaryIsReady, "folio is not built or is stale: run scripts/setup"))
struct CommandRaceTests {
    /// Runs `folio` once per argument list, all started before any is waited for.
    func together(_ runs: [[String]]) throws {
        let binary = try AppProcess.folioBinary()
        let started = try runs.map { try ChildProcess(binary.path, $0, errors: .pipe) }
        for (process, arguments) in zip(started, runs) {
            let message = String(decoding: process.errors?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
            #expect(process.wait() == 0, "\(arguments): \(message)")
        }
    }

    @Test func concurrentZooAddsWithANewOrderMakeOneClassification() async throws {
        let folder = try AppTemporaryDirectory()
        for round in 0..<8 {
            let store = folder.path("zoo-\(round).sqlite")
            _ = try await MainActor.run { try ZooStore.open(at: URL(fileURLWithPath: store)) }
            try together(
                (0..<6).map { ["zoo", "add", "--name", "Sloth \($0)", "--habitat", "Canopy", "--order", "Pilosa", "--store", store] })
            let (classifications, animals) = try await MainActor.run {
                let context = try ZooStore.open(at: URL(fileURLWithPath: store)).viewContext
                return (
                    try context.count(for: FetchRequest<Classification>(predicate: #Predicate { $0.order == "Pilosa" })),
                    try context.count(for: FetchRequest<Animal>(predicate: #Predicate { $0.habitat == "Canopy" }))
                )
            }
            #expect(classifications == 1, "round \(round)")
            #expect(animals == 6, "round \(round)")
        }
    }

    @Test func concurrentPlanetAddsTakeDistinctPositions() async throws {
        let folder = try AppTemporaryDirectory()
        for round in 0..<4 {
            let store = folder.path("planets-\(round).sqlite")
            _ = try await MainActor.run { try PlanetsStore.open(at: URL(fileURLWithPath: store)) }
            try together((0..<6).map { ["planets", "add", "Exo \($0)", "--store", store] })
            let positions = try await MainActor.run {
                try PlanetsStore.open(at: URL(fileURLWithPath: store)).viewContext.fetch(Planet.listRequest).map(\.position)
            }
            #expect(positions == Array(0..<15), "round \(round)")
        }
    }
}
