import Foundation

extension ListedTable {
    /// Runs an app's `list [--json]`: reads the flag, makes the table from the
    /// store at the context's URL, prints it as text or JSON.
    ///
    /// ```swift
    /// case "list":
    ///     try ListedTable.runList(&arguments, context: context) { url in
    ///         let container = try PlanetsStore.open(at: url, readOnly: true)
    ///         return try PlanetsCommands.listedTable(container.viewContext)
    ///     }
    /// ```
    @MainActor
    public static func runList(
        _ arguments: inout Arguments, context: AppContext,
        table: (_ storeURL: URL) throws -> ListedTable
    ) throws {
        let json = arguments.flag("--json")
        try arguments.finish()
        let listed = try table(context.storeURL)
        if json {
            context.console.out(listed.json.text)
        } else if !listed.plainText.isEmpty {
            // An empty table prints nothing at all, not a blank line.
            context.console.out(String(listed.plainText.dropLast()))
        }
    }
}
