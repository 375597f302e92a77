import FolioTableTestSupport
import Foundation

extension PseudoTerminal {
    /// The probe program, built with the package next to the test bundle.
    static var probe: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("folio-terminal-probe").path
    }
}
