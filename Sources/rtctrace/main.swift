import CommandLineKit
import SystemLayer
import TraceModel

/// One subcommand: its spec and what it runs.
struct Command: Sendable {
    let spec: CommandSpec
    let run: @Sendable (Arguments) throws -> ExitCode
}

/// `rtctrace version` (also `rtctrace --version`).
let versionCommand = Command(spec: CommandSpec(name: "version", usage: "version", summary: "Print rtctrace's version.")) { _ in
    Output.stdout.line("rtctrace \(rtctraceVersion)")
    return .success
}

let commands: [Command] = [
    RecordCommand.command, AppendCommand.command, CatCommand.command, InfoCommand.command, VerifyCommand.command,
] + replayCommands + toolCommands + [versionCommand]

let topHelp = """
OVERVIEW: Record, inspect and replay traces of the SRTC / SMeeting iOS SDK.

USAGE: rtctrace <command> [options]

COMMANDS:
\(commands.map { "  " + $0.spec.name + String(repeating: " ", count: max(1, 10 - $0.spec.name.count)) + $0.spec.summary }.joined(separator: "\n"))

  See 'rtctrace <command> --help' for the options of a command, 'rtctrace --version' for the version.
"""

@MainActor
func runMain() -> Int32 {
    var args = Array(CommandLine.arguments.dropFirst())
    guard var name = args.first else {
        Output.stderr.write(topHelp + "\n")
        Output.stderr.flush()
        return ExitCode.usage.rawValue
    }
    args.removeFirst()
    defer {
        Warnings.shared.finish()
        Output.stdout.flush()
        Output.stderr.flush()
    }
    if name == "--help" || name == "-h" || name == "help" {
        Output.stdout.write(topHelp + "\n")
        return finish(.success)
    }
    if name == "--version" { name = "version" }
    guard let command = commands.first(where: { $0.spec.name == name }) else {
        Output.stderr.line("Error: unknown command '\(terminalSafe(name))'")
        Output.stderr.line("See 'rtctrace --help'.")
        return ExitCode.usage.rawValue
    }
    do {
        let parsed = try Arguments(args, spec: command.spec)
        if parsed.wantsHelp {
            Output.stdout.write(command.spec.help)
            return finish(.success)
        }
        return finish(try command.run(parsed))
    } catch let e as UsageError {
        Output.stderr.line("Error: " + terminalSafe(e.message))
        Output.stderr.line("Usage: rtctrace \(command.spec.usage)")
        Output.stderr.line("  See 'rtctrace \(command.spec.name) --help'.")
        return ExitCode.usage.rawValue
    } catch let e as DataError {
        Output.stderr.line("Error: " + terminalSafe(e.message))
        return ExitCode.dataError.rawValue
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

/// The exit code once standard output is written: a write that failed turns success into failure.
@MainActor
func finish(_ code: ExitCode) -> Int32 {
    do { try Output.stdout.finish() } catch let e as CommandFailure {
        Output.stderr.line("Error: " + terminalSafe(e.message))
        return code == .success ? ExitCode.failure.rawValue : code.rawValue
    } catch {}
    return code.rawValue
}

CurrentProcess.exit(runMain())
