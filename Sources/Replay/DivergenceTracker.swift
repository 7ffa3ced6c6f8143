import TraceFormat

/// Compares the predicted route step function with the actual one (X1–X3).
///
/// A divergence is an interval during which the prediction is not null, the actual route is
/// known and not `unknown`, and they differ; it counts once it has lasted longer than the
/// tolerance, once per interval.
struct DivergenceTracker {
    let toleranceMs: Int64
    let maxSegments: Int

    private(set) var predicted: Route?
    private(set) var predictedSeq: Int?
    private(set) var actual: Route?
    private(set) var actualSeq: Int?
    private(set) var divergences: [Divergence] = []
    private(set) var predictedTimeline: [RouteSegment] = []
    private(set) var actualTimeline: [RouteSegment] = []
    private(set) var truncated = false

    /// The interval in progress, and whether it has been counted yet.
    private var open: Divergence?
    private var openCounted = false

    init(toleranceMs: Int64, maxSegments: Int) {
        self.toleranceMs = toleranceMs
        self.maxSegments = maxSegments
    }

    /// The number of divergences counted so far (the open one once past the tolerance).
    var count: Int { divergences.count + (openCounted ? 1 : 0) }

    /// Time passes to `t` with the current routes: an open interval may now pass the tolerance.
    mutating func advance(to t: Int64, replayer: Replayer) {
        guard !openCounted, let start = open?.start, t - start > toleranceMs, var d = open else { return }
        openCounted = true
        d.end = t
        explain(&d, replayer: replayer)
        open = d
        replayer.raise(finding(for: d, replayer: replayer, at: t))
    }

    /// Applies a record's effect on either route.
    mutating func record(_ r: Record, predicted p: Route?, t: Int64, replayer: Replayer) {
        advance(to: t, replayer: replayer)
        switch r.body {
        case .routeChanged(let route, _, _), .routeSnapshot(let route, _):
            if route != actual || actualTimeline.isEmpty { if actualTimeline.count < maxSegments { actualTimeline.append(RouteSegment(t: t, route: route, seq: r.seq)) } else { truncated = true } }
            actual = route
            actualSeq = r.seq
        default: break
        }
        predictionChanged(p, t: t, seq: r.seq, replayer: replayer)
    }

    /// Notes a new prediction (after a record or a timer) and re-evaluates the interval.
    mutating func predictionChanged(_ p: Route?, t: Int64, seq: Int?, replayer: Replayer) {
        if p != predicted || predictedTimeline.isEmpty {
            if predictedTimeline.count < maxSegments { predictedTimeline.append(RouteSegment(t: t, route: p, seq: seq)) } else { truncated = true }
            predicted = p
            predictedSeq = seq
        }
        let differs = predicted != nil && actual != nil && actual != .unknown && predicted != actual
        if differs && open == nil {
            var d = Divergence(start: t, end: t, openAtEnd: false, predicted: predicted!, actual: actual!,
                               predictedSeq: predictedSeq, actualSeq: actualSeq)
            if let applied = replayer.lastApplied, t - applied.t <= toleranceMs, t >= applied.t { d.afterAppliedCall = applied.seq }
            open = d
            openCounted = false
        } else if differs, !openCounted, var d = open {
            // Until it counts, the interval reports the routes that hold now (a brief first
            // reading, e.g. 50 ms of bluetooth before the receiver, does not name it).
            d.predicted = predicted!
            d.actual = actual!
            d.predictedSeq = predictedSeq
            d.actualSeq = actualSeq
            open = d
        } else if !differs, var d = open {
            d.end = t
            close(&d, replayer: replayer)
        }
    }

    private mutating func close(_ d: inout Divergence, replayer: Replayer) {
        if !openCounted && d.end - d.start > toleranceMs {
            explain(&d, replayer: replayer)
            replayer.raise(finding(for: d, replayer: replayer, at: d.end))
            divergences.append(d)
        } else if openCounted {
            divergences.append(d)
        }
        open = nil
        openCounted = false
    }

    /// Closes an interval still open at the end of the trace.
    mutating func finish(at t: Int64, replayer: Replayer) {
        guard var d = open else { return }
        d.end = t
        d.openAtEnd = true
        close(&d, replayer: replayer)
    }

    /// X3: a divergence is explained when a finding accounts for it.
    private func explain(_ d: inout Divergence, replayer: Replayer) {
        if let (code, seq) = replayer.explanation(predicted: d.predicted, actual: d.actual, start: d.start) {
            d.explainedBy = code
            d.explainedBySeq = seq
        }
    }

    private func finding(for d: Divergence, replayer: Replayer, at t: Int64) -> Finding {
        let w = replayer.result.words
        var message = "the contract predicts \(d.predicted.rawValue) but the device played \(d.actual.rawValue) from \(d.start) ms"
        if let p = d.predictedSeq { message += " (prediction set by seq \(p)" + (d.actualSeq.map { ", actual route reported by seq \($0))" } ?? ")") }
        if let a = d.afterAppliedCall { message += "; it started right after the applied route call at seq \(a): the request was accepted but did not take effect" }
        let advice: String
        let severity: Severity
        if let code = d.explainedBy {
            severity = .warning
            message += "; explained by \(code)" + (d.explainedBySeq.map { " (seq \($0))" } ?? "")
            advice = "Fix the cause named by \(code); the route follows once it is fixed."
        } else {
            severity = .error
            message += "; nothing recorded explains it"
            advice = "Escalate to the \(w.product) SDK team with this trace: the device did something the documented contract cannot explain. Meanwhile show \(w.currentRouteAPI) in the UI, not the call's success."
        }
        return Finding(code: .routeDivergence, severity: severity, rule: d.explained ? .X3 : .X2, seqs: d.seqs, t: t,
                       message: message, advice: advice)
    }
}
