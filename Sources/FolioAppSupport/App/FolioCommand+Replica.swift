import FolioStore
import Foundation

extension FolioCommand {
    /// Runs a subcommand on a replica: opens it (copying the server's store
    /// when it is new), syncs once so the subcommand sees what others saved,
    /// runs it on the replica, then syncs again what it saved. A change made
    /// offline is saved on the replica and the command exits 0 saying it
    /// waits ("saved; 1 change waits for the server (offline)"); a message
    /// never claims a sync that did not happen. `sync` syncs once and prints
    /// what it pushed, pulled and could not settle; it exits 3 when the
    /// server cannot be reached and 1 when changes still wait.
    ///
    /// ```swift
    /// if case .onReplica(let work) = command.run(arguments) { exit(await command.run(work).status.rawValue) }
    /// ```
    public func run(_ work: ReplicaRun) async -> Outcome {
        do {
            return .exit(try await perform(work))
        } catch {
            return .exit(failed(error, appName: work.app))
        }
    }

    private func perform(_ work: ReplicaRun) async throws -> ExitStatus {
        guard let app = apps.first(where: { $0.command == work.app }) else {
            throw AppError.usage(message: "unknown app '\(AppError.shown(work.app))'")
        }
        // Synced only here, so that what it reports is every push and pull this command made.
        AppStore.replicasSyncByThemselves = false
        let opened = Result { try app.openStore(at: work.storeURL, replica: work.replica) }
        AppStore.replicasSyncByThemselves = true
        let container = try opened.get()
        let first = await sync(container)
        if work.subcommand == "sync" {
            let arguments = Arguments(work.arguments, valueOptions: valueOptions)
            try arguments.finish()
            return report(first, command: app.command, container: container)
        }
        var saves = 0
        let token = container.viewContext.observeDidSave { _ in saves += 1 }
        var arguments = Arguments(work.arguments, valueOptions: valueOptions)
        let context = AppContext(storeURL: work.storeURL, replica: work.replica, console: console, replicaContainer: container)
        do {
            try app.runSubcommand(work.subcommand, arguments: &arguments, context: context)
            token.cancel()
        } catch {
            token.cancel()
            throw error
        }
        guard saves > 0 else {
            if case .failure(let error) = first, Self.isOffline(error) {
                console.error("folio: the server cannot be reached, so this is the replica as it was last synced")
            }
            return .success
        }
        let second = await sync(container)
        let waiting = Self.waiting(second, container)
        if waiting > 0 {
            console.out("saved; \(ReplicaRun.changesWait(waiting)) for the server (\(why(second, command: app.command)))")
        }
        return .success
    }

    /// One sync, its failure kept; the status it published is current when this returns.
    private func sync(_ container: PersistentContainer) async -> Result<SyncReport, any Error> {
        let result: Result<SyncReport, any Error>
        do { result = .success(try await container.syncNow()) } catch { result = .failure(error) }
        // The sync publishes its state to the main actor before it answers; let that land.
        await Task.yield()
        return result
    }

    private static func waiting(_ result: Result<SyncReport, any Error>, _ container: PersistentContainer) -> Int {
        if case .success(let report) = result { return report.waiting }
        return container.syncStatus?.waitingChanges ?? 0
    }

    /// What the sync reports when another container on the file holds its
    /// sync (an app open on the replica): this one pushed and pulled nothing.
    static let syncedElsewhere = "another container syncs this replica"

    static func isOffline(_ error: any Error) -> Bool {
        switch error {
        case StoreError.offline, StoreError.timedOut: true
        default: false
        }
    }

    /// Why changes still wait after a sync, in a few words.
    private func why(_ result: Result<SyncReport, any Error>, command: String) -> String {
        switch result {
        case .failure(let error):
            return Self.isOffline(error) ? "offline" : "the sync failed: \(AppError.oneLine("\(error)"))"
        case .success(let report):
            if !report.unsettled.isEmpty {
                let count = report.unsettled.count
                return "\(count == 1 ? "1 conflict" : "\(count) conflicts"): `folio \(command) sync` lists \(count == 1 ? "it" : "them")"
            }
            if report.problem == Self.syncedElsewhere { return "another program open on this replica syncs it" }
            if let problem = report.problem { return AppError.oneLine(problem) }
            return "not pushed yet"
        }
    }

    /// What `sync` prints, and its exit status.
    private func report(_ result: Result<SyncReport, any Error>, command: String, container: PersistentContainer) -> ExitStatus {
        switch result {
        case .failure(let error):
            let waiting = Self.waiting(result, container)
            if Self.isOffline(error) {
                console.error(
                    "folio: not synced: the server cannot be reached (\(AppError.oneLine("\(error)"))); "
                        + "\(ReplicaRun.changesWait(waiting)) on the replica")
                return .offline
            }
            console.error("folio: not synced: \(AppError.oneLine("\(error)")); \(ReplicaRun.changesWait(waiting)) on the replica")
            return .failure
        case .success(let report) where report.problem == Self.syncedElsewhere:
            // Nothing was synced here: say so, and what waits.
            console.out(
                "not synced here: another program open on this replica syncs it; "
                    + (report.waiting == 0 ? "nothing waits" : "\(ReplicaRun.changesWait(report.waiting)) for the server"))
            return report.waiting == 0 ? .success : .failure
        case .success(let report):
            console.out("pushed \(ReplicaRun.changes(report.pushed)), pulled \(ReplicaRun.changes(report.pulled))")
            for conflict in report.unsettled {
                console.out("not settled: \(AppError.oneLine(conflict.description))")
            }
            if let problem = report.problem { console.out("not pushed: \(AppError.oneLine(problem))") }
            guard report.waiting > 0 else {
                console.out("synced: nothing waits")
                return .success
            }
            console.out("\(ReplicaRun.changesWait(report.waiting)) for the server")
            return .failure
        }
    }
}
