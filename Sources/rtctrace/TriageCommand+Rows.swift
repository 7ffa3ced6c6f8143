import Analysis
import CommandLineKit
import Replay
import Reports
import TraceCodec
import Workflows

extension TriageCommand {
    /// `triage --from-rows ROWS...`: the summary the rows make (the shards of a run make the unsharded
    /// run's), on standard output: text, or one JSON object with `--json`.
    static func fromRowsCommand(_ args: Arguments, in context: CommandContext) throws -> ExitCode {
        // Options about replaying or writing rows have nothing to act on here: say so rather than ignore them.
        let idle: [any DeclaredOption] = [jobs, shard, output, salt, summaryFlag] + ReplayOptions.commandLine
        if let given = idle.first(where: { args.isGiven($0) }) {
            throw UsageError(message: MessageWords.ignoredWithFromRows(given.erased.name))
        }
        let files = try rowsFiles(args.positionals, role: "rows")
        let changesSince = try baselineSummary(args)
        var summary = TriageSummary()
        try read(files, into: &summary)
        let thresholds = args[failOn]
        let crossed = thresholds.filter { $0.isCrossed(by: summary) }
        let changes = changesSince.map { summary.changes(since: $0) }
        let report = TriageReport(summary, thresholds: thresholds, changes: changes, all: args[all])
        context.out.write(Renderers.triageSummary(args[json] ? .triageJSON : .triageText)!.render(report))
        try context.out.throwIfFailed()
        for t in crossed { context.err.line("Error: --fail-on '\(t)' crossed: \(t.actual(in: summary))") }
        return crossed.isEmpty ? .success : .failure
    }

    /// The summary of the `--baseline` rows, or nil without any.
    static func baselineSummary(_ args: Arguments) throws -> TriageSummary? {
        let given = args[baseline]
        guard !given.isEmpty else { return nil }
        var summary = TriageSummary()
        try read(try rowsFiles(given, role: "--baseline"), into: &summary)
        return summary
    }

    /// The rows files named (files, folders searched for *.jsonl and *.zst, @LIST); a name that does not
    /// exist is a usage error, a folder or entry that cannot be read an I/O error.
    static func rowsFiles(_ names: [String], role: String) throws -> [String] {
        var skipped: [TriageInputs.Skipped] = []
        var unreadable: [TriageInputs.Unreadable] = []
        let list: PathList
        do { list = try TriageInputs.expand(names, skipped: &skipped, unreadable: &unreadable) } catch { throw UsageError(message: "\(role): \(error)") }
        if let u = unreadable.first { throw IOFailure(message: "\(u.path): \(u.reason)") }
        let files = (0..<list.count).map { list[$0] }
        guard !files.isEmpty else { throw UsageError(message: MessageWords.noRowsFile(role, names.joined(separator: ", "))) }
        return files
    }

    /// Adds the rows of `files` to `summary`: a line that is not a row ends the command with 65, a file
    /// that cannot be read with 74.
    static func read(_ files: [String], into summary: inout TriageSummary) throws {
        do {
            try TriageRowsInput.summarize(files, into: &summary)
        } catch {
            if error.isIO { throw IOFailure(message: error.description) }
            throw DataError(message: error.description)
        }
    }
}
