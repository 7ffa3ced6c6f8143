/// A command's description: its name, usage, summary and options, for parsing and `--help`.
package struct CommandSpec: Sendable {
    /// The word after `rtctrace`.
    package let name: String
    /// The usage line after `rtctrace `.
    package let usage: String
    /// One sentence for `rtctrace --help` and the command's own `--help`.
    package let summary: String
    /// Every option the command takes, in `--help` order.
    package let options: [AnyOption]
    /// Text printed after the options in `--help` (notes).
    package let details: String
    /// The codes the command ends with, stated by `--help` under EXIT STATUS.
    package let exits: ExitCodes

    /// Creates a command's description from its typed option declarations.
    package init(name: String, usage: String, summary: String, options: [any DeclaredOption] = [], details: String = "",
                exits: ExitCodes) {
        self.name = name
        self.usage = usage
        self.summary = summary
        self.options = options.map(\.erased)
        self.details = details
        self.exits = exits
    }

    /// The codes the command can end with, in order (1 also for a command whose `--strict` makes damage a "no").
    package var exitCodes: [ExitCode] {
        var codes = exits.codes
        if option(named: "--strict") != nil && !codes.contains(.failure) { codes.insert(.failure, at: 1) }
        return codes
    }

    /// What `code` means for this command: the table's phrasing, and for 1 the command's own answer (with
    /// `--strict`: damage in the input); 64 names an output that exists without `--force` only for a command
    /// that has `--force`.
    package func meaning(_ code: ExitCode) -> String {
        if code == .usage { return ExitCode.usageMeaning(force: option(named: "--force") != nil) }
        guard code == .failure else { return code.meaning }
        let strict = option(named: "--strict") != nil ? KitMessageWords.withStrictDamageInTheInput : nil
        return [exits.failure, strict].compactMap { $0 }.joined(separator: "; ")
    }

    /// The EXIT STATUS lines of `--help`, from the exit-code table, wrapped at 110 columns.
    package var exitStatus: String {
        exitCodes.map { code in
            var lines: [String] = [], line = "  " + String(code.rawValue).padding(4)
            for word in meaning(code).split(separator: " ") {
                if line.count + word.count + 1 > 110 && line.count > 6 {
                    lines.append(line)
                    line = String(repeating: " ", count: 6)
                } else if line.count > 6 {
                    line += " "
                }
                line += word
            }
            return (lines + [line]).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// The command's `--help`: generated from the declarations, so it says what parsing checks.
    package var help: String {
        var s = "OVERVIEW: \(summary)\n\nUSAGE: rtctrace \(usage)\n"
        if !options.isEmpty {
            s += "\nOPTIONS:\n"
            let rows = options.map { ($0.synopsis, $0.helpText) } + [("-h, --help", KitHelpWords.showHelpInformation)]
            let width = rows.map(\.0.count).max() ?? 0
            for (left, right) in rows {
                s += "  " + left + String(repeating: " ", count: width - left.count + 2) + right + "\n"
            }
        }
        if !details.isEmpty { s += "\n" + details + "\n" }
        s += "\nEXIT STATUS:\n" + exitStatus + "\n"
        return s
    }

    /// The declared option spelled `name`.
    package func option(named name: String) -> AnyOption? { options.first { $0.name == name } }
}

/// One subcommand: its spec and what it runs. `run` reads its options typed, calls the libraries,
/// renders into the context's streams, and returns `success` or `failure`; any other ending is an
/// error it throws.
package struct Command: Sendable {
    /// The command's description.
    package let spec: CommandSpec
    /// The command's work, given its parsed arguments and what it reads and writes besides its files.
    package let run: @Sendable (Arguments, CommandContext) throws -> ExitCode

    /// Creates a command.
    package init(spec: CommandSpec, run: @escaping @Sendable (Arguments, CommandContext) throws -> ExitCode) {
        self.spec = spec
        self.run = run
    }
}

extension String {
    /// The string padded with spaces on the right to `width` characters.
    fileprivate func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
