import FolioAdapters
import FolioAppSupport
import FolioProcessSupport
import FolioStore
import FolioTerminal
import Foundation

extension SearchBench {
    /// Runs ``memory(_:cycles:random:)`` in a new process of this program on
    /// the store at `location`, so that nothing done before weighs on it.
    static func memoryInChild(_ location: String, cycles: Int) throws -> [String: Double] {
        let process = try ChildProcess(
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path,
            ["search", "--memory-of", location, "--cycles", "\(cycles)"], output: .pipe, errors: .inherit)
        let data = process.output?.readDataToEndOfFile() ?? Data()
        guard process.wait() == 0, let figures = try JSONSerialization.jsonObject(with: data) as? [String: Double] else {
            throw ChildFailed(output: String(decoding: data, as: UTF8.self))
        }
        return figures
    }

    struct ChildFailed: Error, CustomStringConvertible {
        let output: String
        var description: String { "the memory measurement failed: \(output)" }
    }

    /// The child's side of ``memoryInChild(_:cycles:)``: prints the figures as JSON.
    @MainActor
    static func memoryChild(_ location: String, cycles: Int) {
        var random = ResultsBench.Random(seed: 0x3E3)
        do {
            let figures = try memory(open(location).viewContext, cycles: cycles, random: &random)
            let data = try JSONSerialization.data(withJSONObject: figures)
            print(String(decoding: data, as: UTF8.self))
        } catch {
            FileHandle.standardError.write(Data("folio-bench search: \(error)\n".utf8))
            exit(1)
        }
    }

    /// Resident memory around searches on a screen of every row: idle (the
    /// screen drawn),
    /// the peak over `cycles` search/clear cycles (`/`, four digits, Esc),
    /// and after the first and the last clear, in MB, with their ratios to idle.
    static func memory(_ context: ObjectContext, cycles: Int, random: inout ResultsBench.Random) throws -> [String: Double] {
        var frame = Screen(width: 80, height: 24)
        let live = try screen(context, into: &frame)
        let idle = residentBytes()
        _ = ResultsBench.resetPeakResident()
        var afterFirst = 0
        for cycle in 0..<cycles {
            _ = live.handle(.key(Key(.character("/"))))
            live.draw(into: &frame, in: bounds)
            for _ in 0..<4 {
                _ = live.handle(.key(Key(.character(Character("\(random.below(10))")))))
                live.draw(into: &frame, in: bounds)
            }
            _ = live.handle(.key(Key(.escape)))
            live.draw(into: &frame, in: bounds)
            if cycle == 0 { afterFirst = residentBytes() }
        }
        let peak = ResultsBench.peakResidentBytes(), afterLast = residentBytes()
        let mb = { (bytes: Int) in Double(bytes) / 1_048_576 }
        return [
            "memory_idle_mb": mb(idle), "memory_search_peak_mb": mb(peak),
            "memory_cleared_first_mb": mb(afterFirst), "memory_cleared_last_mb": mb(afterLast),
            "memory_peak_over_idle": Double(peak) / Double(max(idle, 1)),
            "memory_cleared_over_idle": Double(afterLast) / Double(max(idle, 1)),
        ]
    }

    /// Resident memory now (VmRSS), in bytes; 0 where unknown.
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return 0 }
        return kib * 1024
    }
}
