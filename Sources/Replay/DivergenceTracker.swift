import Contract
import TraceModel

/// Compares the predicted route step function with the actual one (X1–X4), as a reducer: the replayer
/// feeds it records, predictions and the findings that may explain a divergence, and handles what it writes
/// into the output buffer it passes (the replayer's own, reused: nothing is allocated per call).
///
/// A divergence is an interval during which the prediction is not null, the actual route is known and not
/// `unknown`, and they differ; it counts once it has lasted longer than the tolerance, once per interval.
struct DivergenceTracker {
    /// What the tracker concluded.
    enum Output: Equatable {
        /// The open interval has lasted longer than the tolerance: it counts from now (X2).
        case counted(Divergence, DivergenceFinding)
        /// A counted interval ended (or the trace did): it belongs in the result, with its finding as
        /// it stands at the end (an explanation attached while it was open, X3; no longer "so far").
        case closed(Divergence, DivergenceFinding?)
        /// An interval that had closed unexplained is explained by a finding raised at the end of its
        /// window, whose row held at a moment it was open (X3): the divergence and its finding as they
        /// stand now replace the ones the result holds (the interval is found by its start).
        case explainedAfterClosing(Divergence, DivergenceFinding)
    }

    /// What the route engine predicts after a record or timer: the route and why (X4), the route a
    /// reading may show without a mismatch (R15), and what may explain a divergence now (X3).
    struct Prediction {
        /// The predicted route (nil: no prediction).
        var route: Route?
        /// The branch of R8 and the record behind it.
        var source: PredictionSource?
        /// A reading of this route is no mismatch (R15's N while a flush window allows it).
        var tolerated: Route?
        /// What the engine's state says can explain a divergence at this moment (X3).
        var facts: ExplanationFacts
        /// The state before the part is unknown: a divergence beginning now is not judged.
        var startStateUnknown = false
        /// The route engine's revision it was derived at (`RouteEngine.revision`).
        var revision = 0
    }

    let toleranceMs: Int64
    let maxSegments: Int
    /// How long after it closed an interval may still be explained (X3): a finding raised at the end of
    /// its window (the recovery window, W) covers moments from at most W + 1 ms before it is raised.
    let explainableMs: Int64
    /// The most closed intervals kept for a later explanation (only a hostile trace has more in W).
    static let explainableCap = 1_000

    private(set) var predicted: Route?
    private(set) var predictedSeq: Int?
    private(set) var predictedBy: PredictionSource?
    private(set) var actual: Route?
    private(set) var actualSeq: Int?
    private(set) var predictedTimeline: [RouteSegment] = []
    private(set) var actualTimeline: [RouteSegment] = []
    private(set) var truncated = false
    /// Divergences counted so far (the open one included once past the tolerance).
    private(set) var count = 0

    /// The interval in progress (nil: none is open), and whether it has been counted yet.
    var open: Divergence? { openStart == nil ? nil : interval }
    private(set) var openCounted = false
    /// The interval in progress while `openStart` is set, stored without an optional so that the checks at
    /// every record edit it where it lies (a field set through `open!` copied the whole interval each time).
    private var interval = Divergence(start: 0, end: 0, openAtEnd: false, predicted: .unknown, actual: .unknown,
                                      predictedSeq: nil, actualSeq: nil)
    /// The moment the open interval counted (its finding's time).
    private var countedAt: Int64?
    /// When the open interval started (nil: none is open): the per-record checks read it instead of copying
    /// the whole interval out of its optional.
    private var openStart: Int64?

    /// What can explain a divergence (X3), as the trace has told so far.
    private var context = ExplanationContext()
    /// The route engine's revision of the last prediction noted, and whether the actual route was read or
    /// set since: when neither moved and no interval is open, noting the same prediction at a later moment
    /// changes nothing, and is skipped.
    private var notedRevision = -1
    private var actualMoved = true
    /// Counted intervals that closed unexplained and that a finding raised at the end of its window may
    /// still explain, with the moment each counted (its finding's time).
    private var explainable: [(divergence: Divergence, countedAt: Int64)] = []

    /// `explainableMs`: the recovery window + 1 ms (see the property).
    init(toleranceMs: Int64, maxSegments: Int, explainableMs: Int64 = 5001) {
        self.toleranceMs = toleranceMs
        self.maxSegments = maxSegments
        self.explainableMs = explainableMs
    }

    /// Whether an open interval would count if time passed to `t` (cheap: no copy of the interval).
    @inline(__always)
    func mayCount(at t: Int64) -> Bool {
        guard !openCounted, let start = openStart else { return false }
        return t - start > toleranceMs
    }

    /// Time passes to `t` with the current routes: an open interval may now pass the tolerance. It counts,
    /// and its finding is raised, at the moment it has lasted longer than the tolerance (start + tolerance
    /// + 1 ms), whichever record first shows that time has passed (X2).
    mutating func advance(to t: Int64, into out: inout [Output]) {
        guard mayCount(at: t), let start = openStart else { return }
        let moment = start.saturatingAdd(toleranceMs).saturatingAdd(1)
        openCounted = true
        count += 1
        interval.end = moment
        countedAt = moment
        out.append(.counted(interval, finding(for: interval, at: moment, final: false)))
    }

    /// Applies a record (after the engines replayed it): its effect on the actual route and on what
    /// explains divergences, then the new prediction.
    /// `layer` is the record's header's layer, when it is a header (only the layer is read of it, so that
    /// the call takes no copy of a header). The new prediction is noted next, when it may matter
    /// (`predictionMayMatter`, `predictionChanged`).
    mutating func record(_ r: ReplayRecord, layer: Layer?, into out: inout [Output]) {
        // The readings of the actual route (X1), and the records the explanations read (X3).
        let observed: Route? = r.kind == .routeChanged || r.kind == .routeSnapshot ? r.route : nil
        if let layer { context.note(layer) }
        if openStart != nil, !openCounted { advance(to: r.t, into: &out) }
        if observed != nil, let change = context.pendingChange(at: r.seq) { context.otherComponentChange = change }
        if let route = observed {
            if route != actual || actualTimeline.isEmpty { Self.append(RouteSegment(t: r.t, route: route, seq: r.seq), to: &actualTimeline, cap: maxSegments, truncated: &truncated) }
            // The record that set the actual route, not a later re-reading of the same route.
            if route != actual || actualSeq == nil { actualSeq = r.seq }
            actual = route
            actualMoved = true
        }
    }

    /// Whether noting the prediction of route engine revision `revision` now could change anything: the
    /// prediction or the actual route moved since the last one noted, or an interval is open (X3 checks
    /// it at every moment).
    @inline(__always)
    func predictionMayMatter(revision: Int) -> Bool {
        revision != notedRevision || actualMoved || openStart != nil || predictedTimeline.isEmpty
    }

    /// The device's route as a part's start gives it (`trace.checkpoint`'s `currentRoute`, nil when the
    /// checkpoint has none or the part has no checkpoint): what was read before a missing stretch says
    /// nothing of the route after it. The next prediction is compared with it.
    mutating func partStarts(actual route: Route?, t: Int64, seq: Int) {
        if route != actual { Self.append(RouteSegment(t: t, route: route, seq: route == nil ? nil : seq), to: &actualTimeline, cap: maxSegments, truncated: &truncated) }
        actual = route
        actualSeq = route == nil ? nil : seq
        actualMoved = true
    }

    /// Notes a finding the engines or the replayer raised, built or counted: some explain divergences (X3).
    mutating func note(_ code: FindingCode, seq: Int?, t: Int64) { context.note(code, seq: seq, t: t) }

    /// Notes an `applied` verdict: a divergence starting right after it is the purest "set but didn't take effect".
    mutating func noteApplied(_ v: Verdict) { context.lastApplied = (v.seq, v.t) }

    /// Notes a new prediction (after a record, or a timer when `seq` is nil) and re-evaluates the interval.
    mutating func predictionChanged(_ p: Prediction, t: Int64, seq: Int?, into out: inout [Output]) {
        if p.route != predicted || predictedTimeline.isEmpty {
            Self.append(RouteSegment(t: t, route: p.route, seq: seq), to: &predictedTimeline, cap: maxSegments, truncated: &truncated)
            predicted = p.route
            predictedSeq = seq
        }
        predictedBy = p.source
        notedRevision = p.revision
        actualMoved = false
        let laterRow = p.facts.addsALaterRow(to: context.facts)
        context.facts = p.facts
        intervalChanged(p, t: t, seq: seq, into: &out)
        // X3: a finding raised at the end of its window attaches its explanation when it is raised, also to
        // the intervals that closed before it while its row held.
        if laterRow { explainClosed(at: t, into: &out) }
    }

    /// Re-evaluates the interval on the new prediction: one opens, changes or closes.
    private mutating func intervalChanged(_ p: Prediction, t: Int64, seq: Int?, into out: inout [Output]) {
        let differs = predicted != nil && actual != nil && actual != .unknown && predicted != actual && actual != p.tolerated
        if differs && openStart == nil {
            var d = Divergence(start: t, end: t, openAtEnd: false, predicted: predicted!, actual: actual!,
                               predictedSeq: predictedSeq, actualSeq: actualSeq)
            d.startSeq = seq
            d.startStateUnknown = p.startStateUnknown
            d.predictedBy = predictedBy
            if let applied = context.lastApplied, t - applied.t <= toleranceMs, t >= applied.t { d.afterAppliedCall = applied.seq }
            context.explain(&d, at: t, starting: true)
            interval = d
            openStart = t
            openCounted = false
        } else if differs, openStart != nil {
            // The open interval is edited where it lies, not copied out and back.
            if !openCounted {
                // Until it counts, the interval reports the routes that hold now (a brief first
                // reading, e.g. 50 ms of bluetooth before the receiver, does not name it).
                interval.predicted = predicted!
                interval.actual = actual!
                interval.predictedSeq = predictedSeq
                interval.actualSeq = actualSeq
            }
            // X4: the record behind the branch at the start, in force after every record of its start ms.
            if t == openStart { interval.predictedBy = predictedBy }
            // X3: the explanation rows are checked at every moment the interval is open.
            context.explain(&interval, at: t, starting: false)
        } else if !differs, openStart != nil {
            var d = interval
            d.end = t
            close(&d, into: &out)
        }
    }

    /// Checks the explanation rows at a moment when nothing else happens (a finding raised at the end of
    /// its window, X3), on the open interval.
    mutating func recheck(facts: ExplanationFacts, at t: Int64) {
        context.facts = facts
        guard openStart != nil else { return }
        context.explain(&interval, at: t, starting: false)
    }

    /// Closes an interval still open at the end of the trace.
    mutating func finish(at t: Int64, into out: inout [Output]) {
        guard openStart != nil else { return }
        var d = interval
        d.end = t
        d.openAtEnd = true
        close(&d, into: &out)
    }

    private mutating func close(_ d: inout Divergence, into out: inout [Output]) {
        var counted: Int64?
        if !openCounted && d.end - d.start > toleranceMs {
            count += 1
            counted = d.end
            out.append(.counted(d, finding(for: d, at: d.end, final: false)))
            out.append(.closed(d, finding(for: d, at: d.end, final: true)))
        } else if openCounted {
            counted = countedAt ?? d.end
            out.append(.closed(d, finding(for: d, at: countedAt ?? d.end, final: true)))
        }
        if let counted, !d.explained {
            forgetExplainable(before: d.end)
            if explainable.count >= Self.explainableCap { explainable.removeFirst() }
            explainable.append((d, counted))
        }
        openStart = nil
        openCounted = false
        countedAt = nil
    }

    /// X3: the closed intervals a row that now holds covers are explained by it; their findings are
    /// restated (rule X3, severity warning).
    private mutating func explainClosed(at t: Int64, into out: inout [Output]) {
        forgetExplainable(before: t)
        // Those still unexplained move up in place (the list keeps its storage).
        var still = 0
        for i in explainable.indices {
            var entry = explainable[i]
            if let (code, seq) = context.explanationAfterClosing(entry.divergence) {
                entry.divergence.explainedBy = code
                entry.divergence.explainedBySeq = seq
                out.append(.explainedAfterClosing(entry.divergence, finding(for: entry.divergence, at: entry.countedAt, final: true)))
            } else {
                explainable[still] = entry
                still += 1
            }
        }
        explainable.removeLast(explainable.count - still)
    }

    /// Drops the closed intervals that no finding can explain any more at `t`: those that ended longer than
    /// `explainableMs` before it.
    private mutating func forgetExplainable(before t: Int64) {
        let horizon = t.saturatingAdd(-explainableMs)
        if let keep = explainable.firstIndex(where: { $0.divergence.end >= horizon }) {
            if keep > 0 { explainable.removeFirst(keep) }
        } else {
            explainable.removeAll(keepingCapacity: true)
        }
    }

    private static func append(_ segment: RouteSegment, to timeline: inout [RouteSegment], cap: Int, truncated: inout Bool) {
        if timeline.count < cap { timeline.append(segment) } else { truncated = true }
    }

    /// The divergence's finding, raised at `t` (the moment it counted), to be phrased where it is read.
    func finding(for d: Divergence, at t: Int64, final: Bool) -> DivergenceFinding {
        DivergenceFinding(divergence: d, t: t, final: final, words: context.words)
    }
}
