import CommandLineKit

/// Every command of `rtctrace`, in `rtctrace --help` order: the registry the dispatcher runs and the
/// tests read in-process (they import this module), so no list of commands is kept anywhere else.
package enum Commands {
    /// The commands, each with its spec (options declared once) and its work.
    package static let all: [Command] = [
        RecordCommand.command, AppendCommand.command, CatCommand.command, InfoCommand.command, VerifyCommand.command,
        ReplayCommand.command, ExplainCommand.command, CheckCommand.command,
        ReviewCommand.make(accept: true), ReviewCommand.make(accept: false),
        ReportCommand.command, ExportCommand.command, RedactCommand.command, ReduceCommand.command,
        ImportLogCommand.command, RulesCommand.command, TriageCommand.command, DiffCommand.command, WhatIfCommand.command,
        VersionCommand.command,
    ]
}
