import FolioStore
import FolioTestSupport
import Foundation

// The conflict tests' other process:
//   conflict-peer PATH   opens PATH with the conflict schema, prints "ready", then runs one
//                        ConflictCommands line from stdin at a time, printing its answer; exits at end of input

/// Runs the conflict peer and exits; returns when `arguments` name another mode.
@MainActor
func runConflictMode(_ arguments: [String]) {
    guard arguments.count == 3 && arguments[1] == "conflict-peer" else { return }
    do {
        let container = try PersistentContainer(schema: ConflictTestSchema.make(), path: arguments[2])
        say("ready")
        while let line = readLine() { say(ConflictCommands.run(line, in: container.viewContext)) }
        exit(0)
    } catch {
        say("failed \(error)")
        exit(1)
    }
}
