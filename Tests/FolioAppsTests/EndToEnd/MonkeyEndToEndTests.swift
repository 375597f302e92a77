import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// The randomised monkey of `Monkey` on each app (1,300 actions each by
    /// default: over 5,000 per run across the four).
    @Suite struct MonkeyEndToEndTests {
        /// A random listed row's value for `key`, or nil when nothing is listed.
        static func anyRow(
            _ key: String, _ sections: [(name: String, rows: [[String: Any]])],
            _ random: inout ResultsRandom
        ) -> String? {
            sections.flatMap(\.rows).randomElement(using: &random).flatMap { $0[key] as? String }
        }

        @Test func planets() throws {
            var monkey = try Monkey(
                .init(app: "planets", entity: "Planet", ready: "Mercury") { random, sections in
                    let n = Int.random(in: 0..<1000, using: &random)
                    if n % 2 == 0, let name = Self.anyRow("name", sections, &random) { return ["delete", name] }
                    return ["add", "Monkey \(n)"]
                }, salt: 1)
            try monkey.run()
        }

        @Test func zootastic() throws {
            var monkey = try Monkey(
                .init(app: "zoo", entity: "Animal", ready: "Mantled Howler") { random, sections in
                    let n = Int.random(in: 0..<1000, using: &random)
                    switch n % 3 {
                    case 0: if let name = Self.anyRow("commonName", sections, &random) { return ["delete", "--name", name] }
                    case 1: if let order = sections.randomElement(using: &random)?.name { return ["rename-order", order, "Order \(n)"] }
                    default: break
                    }
                    return ["add", "--name", "Monkey \(n)", "--habitat", "Cage \(n)", "--order", ["Primates", "Order \(n % 7)"][n % 2]]
                }, salt: 2)
            try monkey.run()
        }

        @Test func myLocations() throws {
            var plan = Monkey.Plan(app: "locations", entity: "Location", ready: "Tag Location") { random, sections in
                let n = Int.random(in: 0..<1000, using: &random)
                if n % 2 == 0, let id = Self.anyRow("id", sections, &random) { return ["delete", id] }
                return [
                    "add", "--description", "Monkey \(n)", "--category", ["Bar", "Park", "Landmark"][n % 3],
                    "--latitude", "\(n % 90)", "--longitude", "\(n % 180)",
                ]
            }
            plan.toList = ["2"]
            var monkey = try Monkey(plan, salt: 3)
            try monkey.run()
        }

        @Test func buildGuide() throws {
            var monkey = try Monkey(
                .init(app: "guides", entity: "Guide", ready: "Cannon Rush") { random, sections in
                    let n = Int.random(in: 0..<1000, using: &random)
                    switch n % 3 {
                    case 0: if let id = Self.anyRow("id", sections, &random) { return ["delete", "--id", id] }
                    case 1: if let id = Self.anyRow("id", sections, &random) { return ["add-unit", "--id", id, "Zergling"] }
                    default: break
                    }
                    return ["add", "Monkey \(n)", "--race", ["Zerg", "Terran", "Protoss"][n % 3]]
                }, salt: 4)
            try monkey.run()
        }
    }
}
