import Contract
import QualityEngine
import RouteEngine
import TraceModel

/// One expected-vs-actual route divergence (X2), with whether a finding explains it (X3).
package struct Divergence: Equatable, Sendable {
    /// When the prediction and the device started to differ.
    package var start: Int64
    /// When they stopped differing, or the end of the trace.
    package var end: Int64
    /// Whether the divergence was still open at the end of the trace.
    package var openAtEnd: Bool
    /// The engine's predicted route when it started.
    package var predicted: Route
    /// The device's actual route when it started.
    package var actual: Route
    /// The record that set the prediction.
    package var predictedSeq: Int?
    /// The record at which the interval started (nil when a timer started it).
    package var startSeq: Int?
    /// Why the prediction was what it was at the start (X4).
    package var predictedBy: PredictionSource?
    /// The record that reported the actual route.
    package var actualSeq: Int?
    /// The applied call just before it, if it started within the tolerance after one (a pure "set but didn't take effect").
    package var afterAppliedCall: Int?
    /// The finding code that explains it, if any.
    package var explainedBy: FindingCode?
    /// The record behind the explaining finding.
    package var explainedBySeq: Int?
    /// The index of its `route.divergence` finding among the replay's kept findings (nil: not kept).
    package var finding: Int?
    /// It began while the state before the part was unknown (a part of a session replayed without the
    /// parts before it and without a checkpoint): the prediction may rest on what the part does not show,
    /// so it is not reported as unexplained (unknown start state).
    package var startStateUnknown = false

    /// The lost records it was open beside (X5): from the first lost record until the checkpoint that
    /// vouched for the state again; nil when it was open beside none.
    package var evidenceLost: LostStretch?

    /// No finding explains it, and the evidence that would judge it is missing (X5): records were lost
    /// while it was open, or it began from an unknown start state. Never escalated.
    package var uncertain: Bool { explainedBy == nil && (startStateUnknown || evidenceLost != nil) }

    /// Neither explained by a finding nor uncertain: the divergence to escalate.
    package var unexplained: Bool { explainedBy == nil && !startStateUnknown && evidenceLost == nil }

    /// Whether a finding accounts for it.
    package var explained: Bool { explainedBy != nil }

    /// The first of `seqs`, without building the list.
    var firstSeq: Int? { afterAppliedCall ?? predictedSeq ?? actualSeq ?? explainedBySeq }

    /// The records involved, deciding ones first.
    package var seqs: [Int] {
        var s: [Int] = []
        forEachSeq { s.append($0) }
        return s
    }

    /// Calls `body` with each of `seqs` in its order, without building the list (a report writing
    /// thousands of divergences would allocate one per divergence).
    package func forEachSeq(_ body: (Int) -> Void) {
        let a = afterAppliedCall, b = predictedSeq, c = actualSeq, d = explainedBySeq
        if let a { body(a) }
        if let b, b != a { body(b) }
        if let c, c != a, c != b { body(c) }
        if let d, d != a, d != b, d != c { body(d) }
    }
}

/// One step of a route timeline: a route (or no prediction) from a time, set by a record.
package struct RouteSegment: Equatable, Sendable {
    /// Start of the segment.
    package var t: Int64
    /// The route from then on (nil: no prediction / not yet known).
    package var route: Route?
    /// The record that set it.
    package var seq: Int?

    /// Creates a segment.
    package init(t: Int64, route: Route?, seq: Int?) {
        self.t = t
        self.route = route
        self.seq = seq
    }
}
