import CommandLineKit
@_spi(FaultInjection) import SystemLayer

// The whole tool: the dispatcher runs the command the arguments name in the process's context (its
// standard streams, standard input and environment) and maps its ending to an exit code
// (CommandLineKit's `Dispatcher`); the commands are listed in `Commands.all`. Only here does the
// process exit. Large blocks go back to the system when freed, so the memory of `--jobs N` is what
// the jobs hold, not what they held.
Memory.returnLargeBlocksToTheSystem()
// SIGINT, SIGTERM and SIGHUP remove the command's own temporaries, then end it with 128 + the signal.
SignalCleanup.install()
#if DEBUG
// `RTCTRACE_FAULT_STALL_TEMPORARY=1` (debug builds only): stop at the first write to a temporary and wait
// there, so that a test signals a command in the middle of writing its output.
if CurrentProcess.environment("RTCTRACE_FAULT_STALL_TEMPORARY") == "1" {
    SystemFaults.injector = .stallingAtTheFirstWriteToATemporary()
}
#endif
CurrentProcess.exit(Dispatcher(commands: Commands.all).run(Array(CurrentProcess.arguments.dropFirst()), in: .process()).rawValue)
