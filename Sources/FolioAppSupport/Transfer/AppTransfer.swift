import Foundation

/// An app's `import FILE` and `export [FILE]`: what its rows are called,
/// their fields (in the order `list --json` prints them), the table to
/// export (the one `list` prints) and the write that imports checked rows
/// in one transaction.
///
/// ```swift
/// case "import", "export":
///     try PlanetsTransfer.transfer.run(name, arguments: &arguments, context: context)
/// ```
@MainActor
package struct AppTransfer {
    /// What the rows are, in messages: "planets".
    package let noun: String
    /// The fields of a row besides `id`, as `list --json` names them.
    package let fields: [String]
    /// The table `list` prints, from the store at a URL (opened read-only).
    package let table: @MainActor (URL) throws -> ListedTable
    /// Checks every record (an ``ImportError`` names the first bad one) and
    /// writes them all in one transaction to the store at the URL, advancing
    /// the progress as it checks; returns how many rows were added.
    package let write: @MainActor (_ records: [ImportRecord], _ storeURL: URL, _ progress: ImportProgress) throws -> Int

    package init(
        noun: String, fields: [String], table: @escaping @MainActor (URL) throws -> ListedTable,
        write: @escaping @MainActor (_ records: [ImportRecord], _ storeURL: URL, _ progress: ImportProgress) throws -> Int
    ) {
        self.noun = noun
        self.fields = fields
        self.table = table
        self.write = write
    }

    /// The help lines of the two subcommands.
    package static let help = [
        HelpEntry("import FILE [--format json|csv]", "add the rows of FILE (as export writes them) in one transaction"),
        HelpEntry("export [FILE] [--format json|csv] [--force]", "write the rows as JSON or CSV; standard output without FILE"),
    ]

    /// The options the two subcommands take a value for.
    package static let valueOptions: Set<String> = ["--format"]

    /// Runs `import` or `export`.
    package func run(_ name: String, arguments: inout Arguments, context: AppContext) throws {
        if name == "import" { try runImport(&arguments, context: context) } else { try runExport(&arguments, context: context) }
    }

    private func runImport(_ arguments: inout Arguments, context: AppContext) throws {
        let formatOption = try arguments.option("--format")
        let path = try arguments.positional("FILE")
        try arguments.finish()
        let format = try TransferFormat.choose(option: formatOption, path: path)
        let bytes: [UInt8]
        do {
            bytes =
                path == "-"
                ? Array(FileHandle.standardInput.readDataToEndOfFile())
                : Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw AppError.invalidValue(option: "FILE", value: path, reason: "cannot be read: \((error as NSError).localizedDescription)")
        }
        let records = try format.records(bytes, known: fields)
        let progress = ImportProgress(total: records.count, enabled: ImportProgress.terminalAttached(context.console))
        defer { progress.finish() }
        let count = try write(records, context.storeURL, progress)
        progress.finish()
        context.console.out("Imported \(count) \(noun).")
    }

    private func runExport(_ arguments: inout Arguments, context: AppContext) throws {
        let formatOption = try arguments.option("--format")
        let force = arguments.flag("--force")
        let path = arguments.nextPositional()
        try arguments.finish()
        let format = try TransferFormat.choose(option: formatOption, path: path)
        if let path, path != "-", !force, FileManager.default.fileExists(atPath: path) || Self.isLink(path) {
            throw AppError.invalidValue(option: "FILE", value: path, reason: "already exists; add --force to replace it")
        }
        let listed = try table(context.storeURL)
        let text = format == .json ? Self.json(listed) : Self.csv(listed, fields: fields)
        guard let path, path != "-" else {
            context.console.data(text)
            return
        }
        try Self.write(text, to: path, replacing: force)
        context.console.out("Exported \(listed.sections.reduce(0) { $0 + $1.rows.count }) \(noun).")
    }

    private static func isLink(_ path: String) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
    }
}
