/// A command's description: its name, usage, summary and options, for parsing and `--help`.
public struct CommandSpec: Sendable {
    /// The word after `rtctrace`.
    public let name: String
    /// The usage line after `rtctrace `.
    public let usage: String
    /// One sentence for `rtctrace --help` and the command's own `--help`.
    public let summary: String
    /// Every option the command takes, in `--help` order.
    public let options: [AnyOption]
    /// Text printed after the options in `--help` (exit codes, notes).
    public let details: String

    /// Creates a command's description from its typed option declarations.
    public init(name: String, usage: String, summary: String, options: [any DeclaredOption] = [], details: String = "") {
        self.name = name
        self.usage = usage
        self.summary = summary
        self.options = options.map(\.erased)
        self.details = details
    }

    /// The command's `--help`: generated from the declarations, so it says what parsing checks.
    public var help: String {
        var s = "OVERVIEW: \(summary)\n\nUSAGE: rtctrace \(usage)\n"
        if !options.isEmpty {
            s += "\nOPTIONS:\n"
            let rows = options.map { ($0.synopsis, $0.helpText) } + [("-h, --help", "Show help information.")]
            let width = rows.map(\.0.count).max() ?? 0
            for (left, right) in rows {
                s += "  " + left + String(repeating: " ", count: width - left.count + 2) + right + "\n"
            }
        }
        if !details.isEmpty { s += "\n" + details + "\n" }
        return s
    }

    /// The declared option spelled `name`.
    public func option(named name: String) -> AnyOption? { options.first { $0.name == name } }
}

/// One subcommand: its spec and what it runs. `run` reads its options typed, calls the libraries,
/// renders, and returns `success` or `failure`; any other ending is an error it throws.
public struct Command: Sendable {
    /// The command's description.
    public let spec: CommandSpec
    /// The command's work, given its parsed arguments.
    public let run: @Sendable (Arguments) throws -> ExitCode

    /// Creates a command.
    public init(spec: CommandSpec, run: @escaping @Sendable (Arguments) throws -> ExitCode) {
        self.spec = spec
        self.run = run
    }
}
