import Reports
import SystemLayer
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
    defer { Output.stderr.flush() }
    do {
        let parsed = try Arguments(args, spec: command.spec)
        let code: ExitCode
        if parsed.has("--help") {
            Output.stdout.write(command.spec.help)
            code = .success
        } else {
            code = try command.run(parsed)
        }
        Output.stdout.flush()
        if let failure = Output.stdout.failure { throw CommandFailure(message: failure.description) }
        return code.rawValue
    } catch let e as UsageError {
        Output.stderr.line("Error: " + terminalSafe(e.message))
        Output.stderr.line("Usage: rtctrace \(command.spec.usage)")
        Output.stderr.line("  See 'rtctrace \(command.spec.name) --help'.")
        return ExitCode.usage.rawValue
    } catch let e as CommandFailure {
        Output.stdout.flush()
        Output.stderr.line("Error: " + terminalSafe(e.message))
        return ExitCode.failure.rawValue
    } catch {
        Output.stdout.flush()
        Output.stderr.line("Error: " + terminalSafe("\(error)"))
        return ExitCode.failure.rawValue
    }
}

CurrentProcess.exit(runMain())
