import QualityEngine
import Replay
import TraceCodec
import TraceModel

/// What `rtctrace triage` says about one trace: the facts a fleet query groups by, the counts it
/// sums, and the tags it filters on (one JSON row each, schema `rtctrace.triage/1`).
public struct TriageRow: Sendable, Equatable {
    /// The trace: its first part's path, as given or found.
    public var path: String
    /// Every part's path in part order, for a trace recorded as several files (empty for one file).
    public var parts: [String] = []
    /// The header's session id, when the recorder wrote one.
    public var session: String?
    /// Bytes on disk, over all parts.
    public var size: Int = 0
    /// The header's facts (nil without a header).
    public var layer: Layer?
    /// SDK name and version, from the header.
    public var sdk: String?
    /// Hardware model, from the header.
    public var device: String?
    /// OS name and version, from the header.
    public var os: String?
    /// Whether the header says simulator.
    public var simulator: Bool?
    /// Wall-clock start, as the header wrote it.
    public var startedAt: String?
    /// Last `t` − first `t`.
    public var durationMs: Int64 = 0
    /// Records read (every part's, headers included).
    public var records = 0
    /// Reader problems, all of them.
    public var problems = 0
    /// Reader problems by kind.
    public var problemsByKind: [String: Int] = [:]
    /// The first problem, in words.
    public var firstProblem: String?
    /// Why there is nothing to judge (not a trace, unreadable, empty, no header), or nil.
    public var unexplainable: String?
    /// Why the session is incomplete, or nil.
    public var incompleteSession: String?
    /// Why judgement was withheld (an unknown state, a missing part), or nil: no all-clear for this row.
    public var partial: String?
    /// Calls that got a verdict.
    public var calls = 0
    /// Calls that did not take effect, by cause.
    public var notTakingEffectByCause: [String: Int] = [:]
    /// What became of the route calls, by outcome (V2), when the replay decided outcomes.
    public var outcomes: [String: Int] = [:]
    /// Divergences a finding explains.
    public var explainedDivergences = 0
    /// Divergences nothing explains.
    public var unexplainedDivergences = 0
    /// Findings by code, all of them.
    public var findings: [FindingCode: Int] = [:]
    /// Findings of severity error, other than divergences (of those the replay kept).
    public var errors = 0
    /// Milliseconds at each quality level (`excellent`, …, `noData`), when the trace has quality data.
    public var qualityTimeMs: [(String, Int64)]?
    /// The longest poor or lost stretch.
    public var worstQuality: (startT: Int64, endT: Int64)?
    /// The problem classes, in taxonomy order.
    public var tags: [TriageTag] = []

    /// Creates a row for a trace with nothing known yet.
    public init(path: String) { self.path = path }

    /// Calls that did not take effect, over all causes.
    public var notTakingEffect: Int { notTakingEffectByCause.values.reduce(0, +) }

    /// Whether the trace could be judged (it is neither unreadable nor not a trace).
    public var readable: Bool { !tags.contains(.unreadable) && !tags.contains(.notATrace) }

    /// The date part of `startedAt` (`YYYY-MM-DD`), when it starts like an ISO 8601 date.
    public var day: String? {
        guard let s = startedAt, s.utf8.count >= 10 else { return nil }
        let d = Array(s.utf8.prefix(10))
        let digits = [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy { d[$0] >= 0x30 && d[$0] <= 0x39 }
        return digits && d[4] == 0x2D && d[7] == 0x2D ? String(decoding: d, as: UTF8.self) : nil
    }

    public static func == (a: TriageRow, b: TriageRow) -> Bool {
        a.path == b.path && a.parts == b.parts && a.session == b.session && a.size == b.size && a.layer == b.layer
            && a.sdk == b.sdk && a.device == b.device && a.os == b.os && a.simulator == b.simulator && a.startedAt == b.startedAt
            && a.durationMs == b.durationMs && a.records == b.records && a.problems == b.problems
            && a.problemsByKind == b.problemsByKind && a.firstProblem == b.firstProblem && a.unexplainable == b.unexplainable
            && a.incompleteSession == b.incompleteSession && a.partial == b.partial && a.calls == b.calls && a.notTakingEffectByCause == b.notTakingEffectByCause
            && a.outcomes == b.outcomes && a.explainedDivergences == b.explainedDivergences
            && a.unexplainedDivergences == b.unexplainedDivergences && a.findings == b.findings && a.errors == b.errors
            && a.qualityTimeMs.map { $0.map { "\($0.0)=\($0.1)" } } == b.qualityTimeMs.map { $0.map { "\($0.0)=\($0.1)" } }
            && a.worstQuality?.startT == b.worstQuality?.startT && a.worstQuality?.endT == b.worstQuality?.endT && a.tags == b.tags
    }

    /// Builds the row of a replayed trace; `size` is the bytes of all its parts.
    public init(path: String, parts: [String], session: String?, size: Int, replay: PartsReplay) {
        self.path = path
        self.parts = parts.count > 1 ? parts : []
        self.session = session
        self.size = size
        let r = replay.result
        if let h = r.header {
            layer = h.layer
            sdk = h.sdk
            device = h.device.model
            os = h.device.os
            simulator = h.device.simulator
            startedAt = h.startedAt
        }
        durationMs = r.durationMs
        records = r.records
        problems = r.problemCount
        for (k, n) in replay.problemsByKind { problemsByKind[k.rawValue] = n }
        firstProblem = r.problems.first?.description
        incompleteSession = Wording.incompleteSession(replay.result)
        partial = (r.session?.isPartial ?? false) ? incompleteSession : nil
        calls = r.verdictCount
        for (key, n) in r.notTakingEffectCounts {
            notTakingEffectByCause[key.cause?.rawValue ?? key.kind.rawValue, default: 0] += n
        }
        if r.verdictsDropped == 0 {
            for v in r.verdicts { if let o = v.outcome { outcomes[o.kind.rawValue, default: 0] += 1 } }
        }
        unexplainedDivergences = r.unexplainedDivergenceCount
        explainedDivergences = r.divergenceCount - unexplainedDivergences
        findings = r.findingCounts
        errors = r.findings.filter { $0.severity == .error && $0.code != .routeDivergence }.count
        if let q = r.quality, q.reports > 0 {
            qualityTimeMs = [("excellent", q.time.excellent), ("good", q.time.good), ("poor", q.time.poor),
                             ("lost", q.time.lost), ("unknown", q.time.unknown), ("noData", q.time.noData)]
            worstQuality = q.worst.map { ($0.startT, $0.endT) }
        }
        if replay.partsOpened == 0 {
            unexplainable = r.problems.first { $0.kind == .io }?.message ?? "it could not be opened"
        } else {
            unexplainable = r.unexplainable
        }
        tags = Self.tags(of: self, quality: r.quality)
    }

    /// Problem kinds that are damage (the others say the input is empty, unreadable or not a trace).
    static let damageKinds: Set<String> = Set([TraceProblem.Kind.badRecord, .badFrame, .tornFrame, .garbage, .lineTooLong,
                                               .windowTooLarge, .seqGap, .timeBackwards, .header, .headerMissing, .notClosed].map(\.rawValue))

    /// The row's tags: the input's state, then one per finding code and per verdict cause.
    static func tags(of row: TriageRow, quality: QualitySummary?) -> [TriageTag] {
        var set = Set<TriageTag>()
        if row.records == 0 && row.problemsByKind[TraceProblem.Kind.io.rawValue] != nil {
            set.insert(.unreadable)
        } else if row.unexplainable != nil {
            set.insert(.notATrace)
        }
        // A part of a session that cannot be opened while others could is damage too.
        let partLost = !set.contains(.unreadable) && row.problemsByKind[TraceProblem.Kind.io.rawValue] != nil
        if partLost || row.problemsByKind.keys.contains(where: damageKinds.contains) { set.insert(.damagedTrace) }
        if row.incompleteSession != nil { set.insert(.incompleteSession) }
        if row.partial != nil { set.insert(.partialSession) }
        for (code, n) in row.findings where n > 0 { set.insert(TriageTag.tag(for: code)) }
        for (cause, n) in row.notTakingEffectByCause where n > 0 {
            if let c = VerdictCause(rawValue: cause) { set.insert(TriageTag.tag(for: c)) }
        }
        if row.unexplainedDivergences > 0 { set.insert(.unexplainedDivergence) }
        if let q = quality, q.reports > 0 {
            let withData = q.time.total - q.time.noData
            if withData > 0 && (q.time.poor + q.time.lost) * 10 >= withData { set.insert(.poorNetwork) }
        }
        return set.sorted()
    }
}
