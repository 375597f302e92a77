// folio-bench: `folio-bench <store|results|table|render|search|reorder|batch|import|relaunch|postgres|postgres-scale|merge|replica> --rows N [--json]`
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
guard let suite = arguments.first else {
    FileHandle.standardError.write(
        Data(
            "usage: folio-bench <store|results|table|render|search|reorder|batch|import|relaunch|postgres|postgres-scale|merge|replica> --rows N [--json]\n"
                .utf8))
    exit(2)
}
let options = Array(arguments.dropFirst())
switch suite {
case "store": await runStoreBench(options)
case "results": runResultsBench(options)
case "table": runTableBench(options)
case "render": runRenderBench(options)
case "search": await runSearchBench(options)
case "reorder": runReorderBench(options)
case "batch": runBatchBench(options)
case "import": runImportBench(options)
case "relaunch": await runRelaunchBench(options)
case "postgres": await runPostgresBench(options)
case "postgres-scale": await runScaleBench(options)
case "merge": await runMergeBench(options)
case "replica": await runReplicaBench(options)
default:
    FileHandle.standardError.write(Data("folio-bench: unknown suite '\(suite)'\n".utf8))
    exit(2)
}
