import SystemLayer
import TraceCodec
import TraceModel

/// What a command reads and writes besides the files it is given: its standard output and error, its
/// standard input (what `-` reads), its environment, the program its workers run, and the warnings it
/// has printed. `main` passes the process's (`CommandContext.process()`); a test passes streams in
/// memory, so a command runs in the test's own process and leaves nothing behind for the next one.
package final class CommandContext: @unchecked Sendable {
    /// Standard output.
    package let out: Output
    /// Standard error.
    package let err: Output
    /// What `-` reads (standard input).
    package let input: FileDescriptor
    /// The environment variables, by name.
    package let environment: [String: String]
    /// The program a command starts as its worker (`check`'s isolated replays): this one, run again.
    package let executable: String
    /// The warnings printed so far (the first `Warnings.limit`, then a count).
    package let warnings: Warnings

    /// A context over these streams and this environment.
    package init(out: Output, err: Output, input: FileDescriptor, environment: [String: String], executable: String) {
        self.out = out
        self.err = err
        self.input = input
        self.environment = environment
        self.executable = executable
        warnings = Warnings(err)
    }

    /// The process's own: its standard streams, its environment and its executable.
    package static func process() -> CommandContext {
        CommandContext(out: Output(.standardOutput, name: "standard output"), err: Output(.standardError, name: "standard error"),
                       input: .standardInput, environment: CurrentProcess.environmentVariables,
                       executable: ChildProcess.currentExecutable)
    }

    /// Standard output and error kept in memory (`Output.written`), with this input, environment and
    /// worker program: a command run inside another program (a test) this way writes nothing to its streams.
    package static func inMemory(input: FileDescriptor = .standardInput, environment: [String: String] = [:],
                                executable: String = ChildProcess.currentExecutable) -> CommandContext {
        CommandContext(out: Output(inMemory: "standard output"), err: Output(inMemory: "standard error"),
                       input: input, environment: environment, executable: executable)
    }

    /// The variable `name`, when it is set.
    package func environment(_ name: String) -> String? { environment[name] }

    /// Whether to colour standard output: only a terminal, and never when `NO_COLOR` is set to
    /// anything but the empty string (no-color.org).
    package var colour: Bool { out.isTerminal && (environment["NO_COLOR"] ?? "").isEmpty }

    /// Prints a trace problem as a warning on standard error (see `Warnings`).
    package func warn(_ p: TraceProblem) { warnings.add(p) }
}
