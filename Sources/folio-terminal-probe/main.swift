// folio-terminal-probe: run by the terminal tests on a real pty.
//   hold   enter raw mode and the alternate screen, print READY, wait for a signal
//   quit   enter, print READY, then exit(0) normally
//   crash  enter, print READY, then trap (a Swift runtime failure)
//   overflow  enter, print READY, then overflow the stack (SIGSEGV on a full stack)
//   elsewhere  enter, print READY, then draw frames without pause while another
//              thread sends itself SIGTERM
//   demo   a small table app for trying the kit by hand
import FolioTerminal

#if canImport(Glibc)
    import Glibc
#endif

let mode = CommandLine.arguments.dropFirst().first ?? "hold"
if mode == "demo" {
    do {
        try await Application.run(DemoController.makeRoot())
    } catch {
        FileHandle.standardErrorWrite("folio-terminal-probe: \(error)\n")
        exit(1)
    }
    exit(0)
}

let session: TerminalSession
do {
    session = try TerminalSession(options: TerminalOptions(colors: true, mouse: true))
    try session.enter()
} catch {
    FileHandle.standardErrorWrite("folio-terminal-probe: \(error)\n")
    exit(1)
}
session.writeAll(Array("READY".utf8))
switch mode {
case "quit":
    exit(0)
case "crash":
    let values: [Int] = []
    // A runtime failure: index out of range traps.
    print(values[Int(getpid()) % 7 + 1])
case "overflow":
    print(deepen(1))
case "elsewhere":
    var thread = pthread_t()
    pthread_create(&thread, nil, signalThisThreadSoon, nil)
    var frame = 0
    while true {
        frame += 1
        session.writeAll(Array("\u{1B}[Hframe \(frame)".utf8))
    }
default:
    while true { pause() }
}

/// A thread's body: after a moment, a signal that only this thread can take.
/// A plain function, as a closure here would belong to the main actor.
func signalThisThreadSoon(_: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    usleep(100_000)
    pthread_kill(pthread_self(), SIGTERM)
    return nil
}

/// Recursion with no end, that the optimiser cannot turn into a loop.
func deepen(_ depth: Int) -> Int {
    var frame = [UInt8](repeating: UInt8(truncatingIfNeeded: depth), count: 64)
    return withUnsafeMutableBytes(of: &frame) { Int($0[0]) } + deepen(depth + 1) + frame.count
}
