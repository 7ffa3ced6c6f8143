import Contract
import QualityEngine
import RouteEngine
import TraceModel

/// Every tunable of a replay: the engines' options and the comparison's.
public struct ReplayOptions: Sendable, Equatable {
    /// Route engine options (retry delay D, recovery window).
    public var route: RouteEngine.Options
    /// Quality engine options (match window, flapping, layer confirmation timeout, hysteresis).
    public var quality: QualityEngine.Options
    /// A divergence counts once it has lasted longer than this (X2), in ms.
    public var toleranceMs: Int64
    /// Findings kept in full; beyond this only their counts by code are kept.
    public var maxFindings: Int
    /// Route timeline segments kept (for reports); beyond this the timeline is summarised.
    public var maxTimelineSegments: Int
    /// Verdicts kept in full; beyond this they are counted (by kind and cause) only.
    public var maxVerdicts: Int
    /// Divergences kept in full; beyond this they are counted (explained and unexplained) only.
    public var maxDivergences: Int
    /// Distinct strings the replay compares (uids, track ids, device ids and names) it keeps; past this,
    /// every new string counts as one, and the result says so (`trace.limitExceeded`).
    public var maxDistinctStrings = SymbolTable.defaultMaxSymbols

    /// The match window (quality.spuriousChange / missedChange, and R12's window before an unexplained
    /// route change): one option, held by both engines' options.
    public var matchWindowMs: Int64 {
        get { quality.matchWindowMs }
        set {
            quality.matchWindowMs = newValue
            route.matchWindowMs = newValue
        }
    }

    /// Creates options with the contract's defaults.
    public init(route: RouteEngine.Options = .init(), quality: QualityEngine.Options = .init(), toleranceMs: Int64 = 500,
                maxFindings: Int = 2000, maxTimelineSegments: Int = 20000, maxVerdicts: Int = 5000,
                maxDivergences: Int = 5000) {
        self.route = route
        self.quality = quality
        self.toleranceMs = toleranceMs
        self.maxFindings = maxFindings
        self.maxTimelineSegments = maxTimelineSegments
        self.maxVerdicts = maxVerdicts
        self.maxDivergences = maxDivergences
    }
}

/// One expected-vs-actual route divergence (X2), with whether a finding explains it (X3).
public struct Divergence: Equatable, Sendable {
    /// When the prediction and the device started to differ.
    public var start: Int64
    /// When they stopped differing, or the end of the trace.
    public var end: Int64
    /// Whether the divergence was still open at the end of the trace.
    public var openAtEnd: Bool
    /// The engine's predicted route when it started.
    public var predicted: Route
    /// The device's actual route when it started.
    public var actual: Route
    /// The record that set the prediction.
    public var predictedSeq: Int?
    /// The record at which the interval started (nil when a timer started it).
    public var startSeq: Int?
    /// Why the prediction was what it was at the start (X4).
    public var predictedBy: PredictionSource?
    /// The record that reported the actual route.
    public var actualSeq: Int?
    /// The applied call just before it, if it started within the tolerance after one (a pure "set but didn't take effect").
    public var afterAppliedCall: Int?
    /// The finding code that explains it, if any.
    public var explainedBy: FindingCode?
    /// The record behind the explaining finding.
    public var explainedBySeq: Int?
    /// The index of its `route.divergence` finding among the replay's kept findings (nil: not kept).
    public var finding: Int?
    /// It began while the state before the part was unknown (a part of a session replayed without the
    /// parts before it and without a checkpoint): the prediction may rest on what the part does not show,
    /// so it is not reported as unexplained (unknown start state).
    public var startStateUnknown = false

    /// Neither explained by a finding nor begun from an unknown start state: the divergence to escalate.
    public var unexplained: Bool { explainedBy == nil && !startStateUnknown }

    /// Whether a finding accounts for it.
    public var explained: Bool { explainedBy != nil }

    /// The first of `seqs`, without building the list.
    var firstSeq: Int? { afterAppliedCall ?? predictedSeq ?? actualSeq ?? explainedBySeq }

    /// The records involved, deciding ones first.
    public var seqs: [Int] {
        var s: [Int] = []
        for v in [afterAppliedCall, predictedSeq, actualSeq, explainedBySeq] { if let v, !s.contains(v) { s.append(v) } }
        return s
    }
}

/// One step of a route timeline: a route (or no prediction) from a time, set by a record.
public struct RouteSegment: Equatable, Sendable {
    /// Start of the segment.
    public var t: Int64
    /// The route from then on (nil: no prediction / not yet known).
    public var route: Route?
    /// The record that set it.
    public var seq: Int?

    /// Creates a segment.
    public init(t: Int64, route: Route?, seq: Int?) {
        self.t = t
        self.route = route
        self.seq = seq
    }
}

/// The outcome of one `expect.*` record.
public struct ExpectationResult: Equatable, Sendable {
    /// The expect record's seq.
    public var seq: Int
    /// Its type, e.g. `expect.route`.
    public var type: String
    /// The rule it pins.
    public var rule: RuleID?
    /// Whether it held.
    public var passed: Bool
    /// What it expected, as text.
    public var expected: String
    /// What the engines had, as text.
    public var actual: String
}
