import CommandLineKit
import SystemLayer

// The whole tool: the dispatcher runs the command the arguments name and maps its ending to an
// exit code (CommandLineKit's `Dispatcher`); the commands are listed in `Commands.all`. Large blocks go
// back to the system when freed, so the memory of `--jobs N` is what the jobs hold, not what they held.
Memory.returnLargeBlocksToTheSystem()
CurrentProcess.exit(Dispatcher(commands: Commands.all).run(Array(CurrentProcess.arguments.dropFirst())).rawValue)
