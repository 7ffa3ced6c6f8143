import Replay
import SystemLayer
import TraceCodec
import TraceModel

/// Reads every record of a trace, warning on the context's standard error about each problem (or failing
/// on the first with `--strict`).
public func readRecords(_ path: String, strict: Bool, limits: ReaderLimits = .standard, in context: CommandContext,
                 _ body: (Record, TraceReader) throws -> Void) throws -> TraceReader {
    let reader: TraceReader
    do { reader = try TraceReader(path: path, limits: limits) } catch { throw commandError(error) }
    while let event = reader.next() {
        // Output that cannot be written any more ends the command now, not after the whole trace.
        try context.out.throwIfFailed()
        switch event {
        case .record(let r): try body(r, reader)
        case .problem(let p):
            if strict && p.isDamage { throw CommandFailure(message: p.description + " (--strict)") }
            context.warn(p)
        }
    }
    return reader
}

/// Options several commands share, declared once.
public enum CommonOptions {
    public static let strict = Option.flag("--strict", "Fail (exit 1) on the first damaged frame or invalid record instead of recovering.")
    public static let force = Option.flag("--force", "Overwrite OUT if it exists.")
}

/// The files of the one trace the TRACE arguments name: a single file, or the parts of one recorded
/// session given as files, a folder or `@LIST`, in part order whatever order they came in.
public struct TraceParts {
    /// The files, in replay order (the first names the trace).
    public let paths: [String]
    /// The session, when the files carry one.
    public let session: String?
    /// Each file's part number in the session (its header's `session.part`), beside `paths`; empty when
    /// the files carry no session.
    public var partNumbers: [Int] = []

    /// Groups `arguments` into one trace; several traces (or none) is a usage error. A bundle the
    /// recorder wrote (`NAME.rtcbundle`) stands for the parts in it. Warnings go to the context's standard error.
    public static func resolve(_ arguments: [String], in context: CommandContext) throws -> TraceParts {
        guard !arguments.isEmpty else { throw UsageError(message: "expected a TRACE (or the parts of one session)") }
        // A recorder's bundle is the session it holds: what does not check in it is said first.
        let bundles = arguments.filter { !$0.hasPrefix("@") && TraceBundle.isBundle($0, sniff: true) }.compactMap(TraceBundle.open)
        for b in bundles {
            for p in b.problems { context.err.line("warning: \(terminalSafe(b.path)): \(terminalSafe(p))") }
        }
        if arguments.count == 1, bundles.isEmpty, !arguments[0].hasPrefix("@"), !FileSystem.isDirectory(arguments[0]) {
            // A file named on the command line that is not there is the command line's mistake (64); one
            // that is there but cannot be read is an I/O failure (74), when it is opened.
            guard arguments[0] == "-" || (try? FileSystem.statusIfExists(arguments[0], followLinks: false)) != nil else {
                throw UsageError(message: "\(arguments[0]): no such file")
            }
            return TraceParts(paths: arguments, session: nil)
        }
        let files: PathList
        var skipped: [TriageInputs.Skipped] = [], unreadable: [TriageInputs.Unreadable] = []
        do { files = try TriageInputs.expand(arguments, skipped: &skipped, unreadable: &unreadable) } catch { throw UsageError(message: "\(error)") }
        for e in skipped where e.reason.isRefusal { context.err.line("warning: \(terminalSafe(e.path)): skipped, \(terminalSafe(e.why))") }
        // A folder or entry the walk could not read may hold parts of the session: said, never passed over.
        for u in unreadable { context.err.line("warning: \(terminalSafe(u.path)): \(terminalSafe(u.reason))") }
        let plan = TriagePlan(files: files, jobs: 1)
        if plan.count > 1 {
            // A part with no record (its header never reached the disk) belongs to no session: skipped.
            let traces = (0..<plan.count).map(plan.trace)
            let empty = traces.filter { $0.session == nil && $0.paths.count == 1 && TriagePlan.holdsNoRecord($0.paths[0]) }
            if traces.count - empty.count == 1, let trace = traces.first(where: { t in !empty.contains(t) }) {
                for e in empty { context.err.line("warning: \(terminalSafe(e.paths[0])): holds no record (a recorder part whose header never reached the disk); skipped") }
                return TraceParts(paths: trace.paths, session: trace.session, partNumbers: trace.partNumbers)
            }
        }
        guard plan.count == 1 else {
            throw UsageError(message: plan.count == 0 ? "no trace files in \(arguments.joined(separator: " "))"
                : "\(arguments.joined(separator: " ")) holds \(plan.count) traces; give one trace, or the parts of one session"
                    + plan.disagreements.map { " (\($0))" }.joined())
        }
        let trace = plan.trace(0)
        return TraceParts(paths: trace.paths, session: trace.session, partNumbers: trace.partNumbers)
    }
}
