import FolioAppSupport
import Testing

@MainActor
@Suite struct ZooCommandTests {
    let runner: CommandRunner
    init() throws { runner = try CommandRunner() }

    @Test func seededAnimalsAreSectionedByOrderAndSortedByName() throws {
        let result = runner.run("zoo", "list")
        #expect(result.status == .exit(.success))
        #expect(
            result.out == """
                Chiroptera
                  Pygmy Fruit-eating Bat — Flying Mamals Exhibit
                Primates
                  Geoffroy’s Spider Monkey — Primate Exhibit
                  Mantled Howler — Primate Exhibit
                Sirenia
                  West Indian Manatee — Aquatic Mamals Exhibit

                """)
    }

    @Test func addingWithANewOrderMakesASectionAndDeletingTheLastAnimalRemovesIt() throws {
        #expect(runner.run("zoo", "add", "--name", "Okapi", "--habitat", "Forest", "--order", "Artiodactyla").status == .exit(.success))
        #expect(try runner.sections("zoo").map(\.name) == ["Artiodactyla", "Chiroptera", "Primates", "Sirenia"])
        #expect(runner.run("zoo", "delete", "--name", "Okapi").status == .exit(.success))
        #expect(try runner.sections("zoo").map(\.name) == ["Chiroptera", "Primates", "Sirenia"])
    }

    @Test func addingToAnExistingOrderReusesItsClassification() throws {
        #expect(
            runner.run("zoo", "add", "--name", "Bonobo", "--habitat", "Primate Exhibit", "--order", "Primates").status == .exit(.success))
        let primates = try #require(try runner.sections("zoo").first { $0.name == "Primates" })
        #expect(primates.rows.map { $0["commonName"] as? String } == ["Bonobo", "Geoffroy’s Spider Monkey", "Mantled Howler"])
        #expect(primates.rows.allSatisfy { $0["family"] as? String == "Atelidae" || $0["commonName"] as? String == "Bonobo" })
    }

    @Test func renameOrderMovesTheAnimalsToTheNewSection() throws {
        #expect(runner.run("zoo", "rename-order", "Primates", "Apes").status == .exit(.success))
        let sections = try runner.sections("zoo")
        #expect(sections.map(\.name) == ["Apes", "Chiroptera", "Sirenia"])
        #expect(sections[0].rows.count == 2)
    }

    @Test func failuresNameTheProblemAndWriteNothing() throws {
        let missing = runner.run("zoo", "delete", "--name", "Unicorn")
        #expect(missing.status == .exit(.failure))
        #expect(missing.err.contains("no animal named 'Unicorn'"))
        #expect(runner.run("zoo", "rename-order", "Nope", "Other").status == .exit(.failure))
        #expect(runner.run("zoo", "add", "--name", "Okapi", "--order", "X").status == .exit(.usage))
        #expect(runner.run("zoo", "add", "--name", " ", "--habitat", "h", "--order", "X").status == .exit(.failure))
        #expect(try runner.sections("zoo").flatMap(\.rows).count == 4)
    }
}
