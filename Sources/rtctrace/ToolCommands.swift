
/// Commands of the support toolkit (report, export, redact, reduce).
let toolCommands: [Command] = [ReportCommand.command, ExportCommand.command, RedactCommand.command, ReduceCommand.command,
                                RulesCommand.command, TriageCommand.command, DiffCommand.command]
