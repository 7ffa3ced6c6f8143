import TraceCodec
import TraceModel
import SystemLayer

/// The top of the tool: picks the command the first argument names, parses the rest against its
/// spec, runs it, and turns what it returned or threw into an exit code and stderr lines, in this
/// one place (`ExitCode.for`):
///
/// - a usage error: `Error: …`, the usage line and `See 'rtctrace <cmd> --help'.`, exit 64;
/// - any other error: `Error: …` and the error's code (`CommandError`), else 1;
/// - standard output that could not be written ends the command with 74 (`ioError`), whatever it returned.
package struct Dispatcher: Sendable {
    /// Every command, in `rtctrace --help` order.
    package let commands: [Command]

    /// A dispatcher over `commands`.
    package init(commands: [Command]) { self.commands = commands }

    /// `rtctrace --help`: every command with its summary.
    package var help: String {
        """
        OVERVIEW: \(KitHelpWords.overview)

        USAGE: rtctrace <command> [options]

        COMMANDS:
        \(commands.map { "  " + $0.spec.name + String(repeating: " ", count: max(1, 10 - $0.spec.name.count)) + $0.spec.summary }
            .joined(separator: "\n"))

          \(KitHelpWords.seeCommandHelp)
        """
    }

    /// The command spelled `name`.
    package func command(named name: String) -> Command? { commands.first { $0.spec.name == name } }

    /// Runs `arguments` (without the program name) in `context` (its streams, standard input and
    /// environment), and returns the exit code. Warnings and both streams are flushed before it returns.
    package func run(_ arguments: [String], in context: CommandContext) -> ExitCode {
        CommandInputs.scoped(standardInput: context.input) { dispatch(arguments, in: context) }
    }

    private func dispatch(_ arguments: [String], in context: CommandContext) -> ExitCode {
        let out = context.out, err = context.err
        var args = arguments
        guard var name = args.first else {
            err.write(help + "\n")
            err.flush()
            return .usage
        }
        args.removeFirst()
        defer {
            context.warnings.finish()
            out.flush()
            err.flush()
        }
        if name == "--help" || name == "-h" || name == "help" {
            out.write(help + "\n")
            return finish(.success, out: out, err: err)
        }
        if name == "--version" { name = "version" }
        guard let command = command(named: name) else {
            err.line(KitMessageWords.unknownCommand(terminalSafe(name)))
            err.line("See 'rtctrace --help'.")
            return .usage
        }
        do {
            try Self.requireFileDescriptors()
            let parsed = try Arguments(args, spec: command.spec)
            if parsed.wantsHelp {
                out.write(command.spec.help)
                return finish(.success, out: out, err: err)
            }
            return finish(try command.run(parsed, context), out: out, err: err)
        } catch {
            let code = ExitCode.for(error)
            // What the command printed before it failed comes first.
            if code != .usage && code != .dataError { out.flush() }
            err.line("Error: " + terminalSafe((error as? any CommandError)?.message ?? "\(error)"))
            if code == .usage {
                err.line("Usage: rtctrace \(command.spec.usage)")
                err.line("  See 'rtctrace \(command.spec.name) --help'.")
            }
            return code
        }
    }

    /// File descriptors a command may need at once: its inputs and output, a check's worker pipes, the
    /// readers a triage runs in parallel and the thread pool's own (libdispatch traps, SIGILL, when it
    /// cannot get one: with 4–6 descriptors `triage`, `check` and `explain` of many parts died so).
    package static let neededFileDescriptors = 32

    /// Fails before any work, with a clear error (74), when fewer than `neededFileDescriptors` are free.
    static func requireFileDescriptors() throws {
        let (free, limit) = CurrentProcess.freeDescriptors(atMost: neededFileDescriptors)
        guard free < neededFileDescriptors else { return }
        throw IOFailure(message: KitMessageWords.tooFewDescriptors(free)
            + (limit >= 0 ? KitMessageWords.descriptorLimit(limit) : "") + KitMessageWords.descriptorsNeeded(neededFileDescriptors))
    }

    /// The exit code once standard output is written: a write that failed is an I/O failure (74), the
    /// output being lost, whatever the command's answer was.
    func finish(_ code: ExitCode, out: Output, err: Output) -> ExitCode {
        do { try out.finish() } catch {
            err.line("Error: " + terminalSafe((error as? any CommandError)?.message ?? "\(error)"))
            return ExitCode.for(error)
        }
        return code
    }
}
