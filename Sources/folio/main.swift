import BuildGuideApp
import FolioAdapters
import FolioAppSupport
import FolioTerminal
import Foundation
import MyLocationsApp
import PlanetsApp
import ZootasticApp

// folio: the launcher, the four apps, and their subcommands.

// First of all: a crash signal from here on ends the process, the terminal restored.
TerminalSession.installSignalHandlers()
Console.printServerNotices()
let apps: [any FolioApp.Type] = [PlanetsApp.self, ZootasticApp.self, MyLocationsApp.self, BuildGuideApp.self]
let environment = ProcessInfo.processInfo.environment
let console = Console.standard()
// From the bytes: CommandLine.arguments would turn what is not UTF-8 into U+FFFD.
let arguments: [String]
do {
    arguments = try RawCommandLine.arguments(RawCommandLine.currentArguments)
} catch {
    console.error("folio: \(error)")
    exit(ExitStatus.usage.rawValue)
}
var command = FolioCommand(apps: apps, console: console, environment: environment)
command.undecodableVariables = RawCommandLine.undecodableStoreVariables

let screen: ViewController
switch command.run(arguments) {
case .exit(let status):
    exit(status.rawValue)
case .launcher:
    screen = LauncherController(apps: apps, environment: environment)
case .onReplica(let work):
    // A subcommand on a replica syncs with the server before and after it runs.
    guard case .exit(let status) = await command.run(work) else { exit(ExitStatus.failure.rawValue) }
    exit(status.rawValue)
case .open(let name, let storeURL, let replica):
    do {
        let app = apps.first { $0.command == name }!
        screen = try app.makeScreen(storeURL: storeURL, replica: replica)
    } catch {
        console.error("folio: \(error)")
        exit(ExitStatus.failure.rawValue)
    }
}
do {
    try await Application.run(screen)
} catch {
    console.error("folio: \(error)")
    exit(ExitStatus.failure.rawValue)
}
// A save still waiting for the store (Ctrl-C pressed while a quit waited
// for it) lands or is refused before the process ends; nothing else is
// left to tear down.
if StoreSaveQueue.hasUnfinished {
    console.error("folio: finishing a save that waits for the store")
    await StoreSaveQueue.allFinished()
}
// A save refused after the screen was gone is said here, and the exit says so too.
let unseen = Application.alertsAfterQuit
for alert in unseen { console.error("folio: " + [alert.title, alert.message].compactMap { $0 }.joined(separator: ": ")) }
exit(unseen.isEmpty ? ExitStatus.success.rawValue : ExitStatus.failure.rawValue)
