import Contract
import QualityEngine
import RouteEngine
import TraceModel

// What the engines and the divergence tracker wrote, taken by role into the result, the timer queue and
// the step an observer reads.
extension ReplayCore {
    /// Sets the sink up for a step: where the order of what is set runs on from, and whether a finding
    /// raised now may be kept.
    mutating func prepareSink() {
        sink.ordered = timers.counter
        sink.keepsFindings = observing || builder.keepsFindings
    }

    /// Takes what the engines wrote, by role: verdicts and findings into the result, timers into the queue
    /// (in the order the engines set them, deadlines included), outcomes and recoveries, and what only an
    /// observer reads into the step. The engines' outputs are read where they wrote them (`outputsInPlace`),
    /// the route engine's before the quality engine's, after what was put into `sink` itself.
    mutating func absorb(into step: StepBox?) {
        let ordered = sink.ordered
        var i = 0
        while i < sink.count {
            let o = sink[i]
            i += 1
            if case .event = Engines.role(of: o) {
                if step != nil, let e = Self.event(o) { step?.value.events.append(e) }
            } else {
                take(Engines.role(of: o), { $0 }, into: step)
            }
        }
        // Most steps write nothing into a sink: each is emptied only when something was read from it.
        if i > 0 { sink.removeAll() }
        i = 0
        while i < engines.firstSink.count {
            let o = engines.firstSink[i]
            i += 1
            take(RouteEngine.role(of: o), { .first($0) }, into: step)
        }
        if i > 0 { engines.firstSink.removeAll() }
        i = 0
        while i < engines.secondSink.count {
            let o = engines.secondSink[i]
            i += 1
            // A finding counted, not built, is what a closed deadline writes nearly always (the missed
            // snapshots past the cap): taken as it is, without building and destroying its role.
            if case .counted(let c) = o {
                count(c)
                continue
            }
            let role = QualityEngine.role(of: o)
            if case .event = role {
                if step != nil, let e = Self.event(.second(o)) { step?.value.events.append(e) }
            } else {
                take(role, { .second($0) }, into: step)
            }
        }
        if i > 0 { engines.secondSink.removeAll() }
        // The deadlines the engines set took their places after the timers: the count runs on past them.
        timers.counter = max(timers.counter, ordered)
    }

    /// Takes one output by its role as its engine gives it (an `event` only an observer reads is taken by
    /// the caller); `wrap` makes a timer's kind the combined engines' (the role is not rebuilt for that).
    @inline(__always)
    private mutating func take<K>(_ role: EngineOutputRole<K>, _ wrap: (K) -> Engines.TimerKind, into step: StepBox?) {
        switch role {
        case .verdict(let v):
            builder.add(v)
            step?.value.verdicts.append(v)
            if v.verdict == .applied && v.call != .switchLayer { divergences.noteApplied(v) }
        case .finding(let f):
            add(f, into: step)
        case .counted(let c):
            count(c)
        case .timer(let t):
            timers.schedule(wrap(t.kind), due: t.due)
        case let .outcome(callSeq, outcome):
            builder.decided(callSeq, outcome)
            step?.value.events.append(.outcomeDecided(callSeq: callSeq, outcome: outcome))
        case .recovered(let t):
            builder.recovered()
            step?.value.events.append(.recovered(t: t))
        case .event:
            break
        }
    }

    /// Counts a finding an engine did not build (the result keeps no more); the divergence tracker notes it.
    @inline(__always)
    private mutating func count(_ c: FindingCount) {
        builder.count(c)
        divergences.note(c.code, seq: c.seq, t: c.t)
    }

    /// What an output that only an observer reads says, as a step's event.
    static func event(_ o: Engines.Output) -> ReplayEvent? {
        guard case .second(let q) = o else { return nil }
        switch q {
        case .levelChange(let c): return .levelChange(previous: c.previous, overall: c.overall)
        case .snapshot(let s): return .speakers(first: s.prefix(StateSnapshot.listed).map(\.key), count: s.count)
        case .verdict, .finding, .counted, .timer, .outcome: return nil
        }
    }

    /// Keeps a finding (up to the cap); the divergence tracker notes it (some explain divergences, X3).
    @discardableResult
    mutating func add(_ f: Finding, into step: StepBox?) -> Int? {
        let kept = builder.add(f)
        step?.value.findings.append(f)
        divergences.note(f.code, seq: f.seqs.first, t: f.t)
        return kept
    }

    /// What the divergence tracker wrote into `tracked`, which is emptied for its next call. The test for
    /// nothing written (nearly every call) is inlined where it is asked.
    @inline(__always)
    mutating func handleTracked(into step: StepBox?) {
        if !tracked.isEmpty { takeTracked(into: step) }
    }

    /// Takes what the divergence tracker wrote into `tracked`.
    mutating func takeTracked(into step: StepBox?) {
        var i = 0
        while i < tracked.count {
            let o = tracked[i]
            i += 1
            switch o {
            case let .counted(d, f):
                step?.value.events.append(.divergenceCounted(start: d.start))
                step?.value.findings.append(f.finding)
                divergences.note(f.code, seq: d.firstSeq, t: f.t)
            case .closed, .explainedAfterClosing:
                break
            }
            builder.divergence(judged(o))
        }
        tracked.removeAll(keepingCapacity: true)
    }
}
