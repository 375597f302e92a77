#if canImport(Glibc)
    import Glibc
#endif

// Swift's runtime, as it loads, gives the crash signals to its backtracer,
// which on a terminal waits for a key ("Press space to interact") instead
// of ending the process, unless a handler is already there. This runs
// before any library's initialiser (the executable's preinit array), and
// puts one there: until `main` installs the terminal's own handlers (which
// restore the terminal first), a crash signal ends the process by its
// default action. Only plain C calls: the Swift runtime is not set up yet.
@section(".preinit_array") @used
let takeCrashSignalsBeforeTheRuntime: @convention(c) () -> Void = {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { number in
        signal(number, nil)  // SIG_DFL, without a call into Swift's Glibc overlay
        raise(number)
    }
    sigemptyset(&action.sa_mask)
    sigaction(SIGSEGV, &action, nil)
    sigaction(SIGBUS, &action, nil)
    sigaction(SIGILL, &action, nil)
    sigaction(SIGFPE, &action, nil)
    sigaction(SIGABRT, &action, nil)
    sigaction(SIGTRAP, &action, nil)
    sigaction(SIGQUIT, &action, nil)
}
