import CommandLineKit
import SystemLayer
import TraceCodec
import TraceModel

/// The one trace the TRACE arguments name: a single file, or the parts of one recorded session given as
/// files, a folder or `@LIST`, in part order whatever order they came in.
package enum TraceInput {
    /// Groups `arguments` into one trace (`TraceSession.group`); several traces (or none) is a usage
    /// error. A bundle the recorder wrote (`NAME.rtcbundle`) stands for the parts in it. Warnings go to the
    /// context's standard error.
    package static func resolve(_ arguments: [String], in context: CommandContext) throws -> TraceSession {
        guard !arguments.isEmpty else { throw UsageError(message: WorkflowMessageWords.expectedATraceOrTheParts) }
        // A recorder's bundle is the session it holds: what does not check in it is said first.
        let bundles = arguments.filter { !$0.hasPrefix("@") && TraceBundle.isBundle($0, sniff: true) }.compactMap(TraceBundle.open)
        for b in bundles {
            for p in b.problems { context.err.line("warning: \(terminalSafe(b.path)): \(terminalSafe(p))") }
        }
        if arguments.count == 1, bundles.isEmpty, !arguments[0].hasPrefix("@"), !FileSystem.isDirectory(arguments[0]) {
            // A file named on the command line that is not there is the command line's mistake (64); one
            // that is there but cannot be read is an I/O failure (74), when it is opened.
            guard arguments[0] == "-" || (try? FileSystem.statusIfExists(arguments[0], followLinks: false)) != nil else {
                throw UsageError(message: FileWords.noSuchFile(arguments[0]))
            }
            return TraceSession(paths: arguments)
        }
        let files: PathList
        var skipped: [TriageInputs.Skipped] = [], unreadable: [TriageInputs.Unreadable] = []
        do { files = try TriageInputs.expand(arguments, skipped: &skipped, unreadable: &unreadable) } catch { throw UsageError(message: "\(error)") }
        for e in skipped where e.reason.isRefusal { context.err.line("warning: \(terminalSafe(e.path)): skipped, \(terminalSafe(e.why))") }
        // A folder or entry the walk could not read may hold parts of the session: said, never passed over.
        for u in unreadable { context.err.line("warning: \(terminalSafe(u.path)): \(terminalSafe(u.reason))") }
        let plan = TraceSession.group(files, jobs: 1)
        if plan.count > 1 {
            // A part with no record (its header never reached the disk) belongs to no session: skipped.
            let traces = plan.all
            let empty = traces.filter { $0.id == nil && $0.paths.count == 1 && TraceSession.holdsNoRecord($0.paths[0]) }
            if traces.count - empty.count == 1, let trace = traces.first(where: { t in !empty.contains(t) }) {
                for e in empty { context.err.line(WorkflowMessageWords.emptyPartSkipped(terminalSafe(e.paths[0]))) }
                return trace
            }
        }
        guard plan.count == 1 else {
            throw UsageError(message: plan.count == 0 ? WorkflowMessageWords.noTraceFiles(arguments.joined(separator: " "))
                : WorkflowMessageWords.severalTraces(arguments.joined(separator: " "), plan.count)
                    + plan.disagreements.map { " (\($0))" }.joined())
        }
        return plan[0]
    }
}
