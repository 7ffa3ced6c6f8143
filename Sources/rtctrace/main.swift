import Glibc
import Reports
import TraceFormat

/// One subcommand: its spec and what it runs.
struct Command: Sendable {
    let spec: CommandSpec
    let run: @Sendable (Arguments) throws -> ExitCode
}

let commands: [Command] = [
    RecordCommand.command, AppendCommand.command, CatCommand.command, InfoCommand.command, VerifyCommand.command,
] + replayCommands + toolCommands

let topHelp = """
OVERVIEW: Record, inspect and replay traces of the SRTC / SMeeting iOS SDK.

USAGE: rtctrace <command> [options]

COMMANDS:
\(commands.map { "  " + $0.spec.name + String(repeating: " ", count: max(1, 10 - $0.spec.name.count)) + $0.spec.summary }.joined(separator: "\n"))

  See 'rtctrace <command> --help' for the options of a command.
"""

@MainActor
func runMain() -> Int32 {
    var args = Array(CommandLine.arguments.dropFirst())
    guard let name = args.first else {
        Output.stderr.write(topHelp + "\n")
        Output.stderr.flush()
        return ExitCode.usage.rawValue
    }
    args.removeFirst()
    if name == "--help" || name == "-h" || name == "help" {
        Output.stdout.write(topHelp + "\n")
        Output.stdout.flush()
        return 0
    }
    guard let command = commands.first(where: { $0.spec.name == name }) else {
        Output.stderr.line("Error: unknown command '\(terminalSafe(name))'")
        Output.stderr.line("See 'rtctrace --help'.")
        Output.stderr.flush()
        return ExitCode.usage.rawValue
    }
    defer {
        Warnings.shared.finish()
        Output.stdout.flush()
        Output.stderr.flush()
    }
    do {
        let parsed = try Arguments(args, spec: command.spec)
        if parsed.has("--help") {
            Output.stdout.write(command.spec.help)
            return 0
        }
        return try command.run(parsed).rawValue
    } catch let e as UsageError {
        Output.stderr.line("Error: " + terminalSafe(e.message))
        Output.stderr.line("Usage: rtctrace \(command.spec.usage)")
        Output.stderr.line("  See 'rtctrace \(command.spec.name) --help'.")
        return ExitCode.usage.rawValue
    } catch let e as DataError {
        Output.stderr.line("Error: " + terminalSafe(e.message))
        return ExitCode.dataError.rawValue
    } catch let e as CommandFailure {
        Output.stderr.line("Error: " + terminalSafe(e.message))
        return ExitCode.failure.rawValue
    } catch {
        Output.stderr.line("Error: " + terminalSafe("\(error)"))
        return ExitCode.failure.rawValue
    }
}

exit(runMain())
