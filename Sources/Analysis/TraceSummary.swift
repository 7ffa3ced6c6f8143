import LogImport
import QualityEngine
import Replay
import TraceCodec
import TraceModel

/// What `info` and `verify` learn by reading a whole trace without replaying it: its header, counts,
/// frames and sizes, stretches without records, what the recorder says it lost, and the reader's problems.
package struct TraceSummary: Sendable {
    /// A stretch the recorder says it lost: a `trace.dropped` (a count) or a `trace.paused` (a reason).
    package struct Lost: Sendable, Equatable {
        /// The record that says so.
        package var seq: Int
        /// Where the stretch starts and ends on the trace's clock.
        package var fromT: Int64, toT: Int64
        /// The records dropped (`trace.dropped`), nil for a pause.
        package var dropped: Int?
        /// Why nothing was recorded (`trace.paused`), nil for a drop.
        package var pause: PauseReason?
    }

    /// The file read.
    package var file: String
    /// The trace's header, nil when it has none.
    package var header: TraceHeader?
    /// Records read.
    package var records = 0
    /// The first and last record's time.
    package var firstT: Int64?, lastT: Int64?
    /// Records by type (at most `typeCap` types).
    package var byType: [String: Int] = [:]
    /// Records of types the reader does not know, by type.
    package var unknownTypes: [String: Int] = [:]
    /// The reader's problems, the first 1,000.
    package var problems: [TraceProblem] = []
    /// Every problem, counted.
    package var problemCount = 0
    /// Problems that are damage (not warnings such as a skipped byte-order mark).
    package var damageCount = 0
    /// The container's frames and sizes.
    package var stats = ContainerStats()
    /// Stretches without records.
    package var gaps = RecordGaps()
    /// The user's problem reports marked in the trace (`trace.report`), the first 64.
    package var reports: [ReportMark] = []
    /// Stretches the recorder says it lost (`trace.dropped`, `trace.paused`), the first 100.
    package var lost: [Lost] = []
    /// The records imported from the device's log, and how their times were placed.
    package var systemLog = SystemLogSummary()
    /// Distinct record types counted; further types are counted together (a hostile trace can make
    /// every record a new type).
    package static let typeCap = 1000
    /// Records of the types past `typeCap`.
    package var otherTypes = 0

    /// A summary of `file` with nothing read yet.
    package init(file: String) { self.file = file }

    /// Reads the whole trace at `path`, handing each problem to `onProblem` as it is met; throws what
    /// opening it threw.
    package static func read(_ path: String, limits: ReaderLimits = .standard, onProblem: (TraceProblem) -> Void = { _ in }) throws -> TraceSummary {
        var s = TraceSummary(file: path)
        let reader = try TraceReader(path: path, limits: limits)
        while let e = reader.next() {
            switch e {
            case .record(let r):
                s.records += 1
                if s.firstT == nil { s.firstT = r.t }
                s.lastT = r.t
                if s.byType[r.type] != nil || s.byType.count < typeCap { s.byType[r.type, default: 0] += 1 } else { s.otherTypes += 1 }
                s.gaps.observe(r)
                s.noteRecorderMarks(r)
                s.systemLog.observe(r)
            case .problem(let p):
                s.problemCount += 1
                if p.isDamage { s.damageCount += 1 }
                if s.problems.count < 1000 { s.problems.append(p) }
                onProblem(p)
            }
        }
        s.header = reader.header
        s.unknownTypes = reader.unknownTypes
        s.stats = reader.stats
        return s
    }

    /// From the first record to the last.
    package var durationMs: Int64 { (lastT ?? 0) - (firstT ?? 0) }

    /// Whether the reader found the file to be no trace at all (an archive, a text file).
    package var isNotATrace: Bool { problems.contains { $0.kind == .notATrace } }

    /// Keeps what the recorder says about the session: the user's reports, and what it lost.
    mutating func noteRecorderMarks(_ r: Record) {
        if case let .report(id, note) = r.body, reports.count < 64 {
            reports.append(ReportMark(id: TextCap.clip(id), note: note.map { TextCap.clip($0) }, t: r.t, seq: r.seq))
        } else if case let .dropped(count, fromT, toT) = r.body, lost.count < 100 {
            lost.append(Lost(seq: r.seq, fromT: fromT, toT: toT, dropped: count, pause: nil))
        } else if case let .paused(fromT, toT, reason) = r.body, lost.count < 100 {
            lost.append(Lost(seq: r.seq, fromT: fromT, toT: toT, dropped: nil, pause: reason))
        }
    }
}

/// What `verify` says of one thing it checked, in the order it checked them: a recorder's bundle (its
/// manifest), a file it could not read, a trace read whole, or a session whose parts were not all given.
package enum Verification: Sendable {
    /// A bundle's manifest: its path, session and parts, and what does not check (sentences).
    case bundle(path: String, session: String?, parts: Int, problems: [String])
    /// A file that could not be read as a trace at all, and why.
    case unreadable(file: String, message: String)
    /// A trace read whole.
    case trace(TraceSummary)
    /// A session some of whose parts (between the first and the last given) were not given.
    case missingParts(session: String, missing: [Int], of: Int)

    /// Whether it checks: a bundle or trace without damage.
    package var ok: Bool {
        switch self {
        case .bundle(_, _, _, let problems): problems.isEmpty
        case .unreadable, .missingParts: false
        case .trace(let s): s.damageCount == 0
        }
    }

    /// The verification of a recorder's bundle.
    package init(_ bundle: TraceBundle) {
        self = .bundle(path: bundle.path, session: bundle.manifest?.session, parts: bundle.parts.count, problems: bundle.problems)
    }
}
