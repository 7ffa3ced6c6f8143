import Contract
import Replay
import TraceModel

/// Phrases for verdicts and causes in the trace layer's own words.
package enum Wording {
    /// The device of a trace without a header.
    static let unknownDevice = "unknown (the trace has no header)"

    /// How many problems reading the trace met, and where to see them.
    static func readingProblems(_ count: Int) -> String {
        "\(count) problem\(count == 1 ? "" : "s") while reading (see stderr; run 'rtctrace verify')"
    }

    /// A short phrase for an outcome that carries no cause (V2); `end` says how the trace ended.
    package static func outcome(_ kind: OutcomeKind, _ w: LayerWords, end: TraceEnd = .end) -> String {
        switch kind {
        case .superseded: "a later call changed the same setting before it took effect"
        case .dropped: "the app \(w.left) the \(w.session) before it took effect (the override is dropped)"
        case .pending: "still waiting \(end.whenEnded)"
        case .applied, .noop, .ineffective, .rejected, .undetermined: kind.rawValue
        }
    }

    /// The advice of a call whose outcome differs from its verdict (V2): the outcome's own (applied late,
    /// by what applied it; superseded, dropped, ineffective with its cause and the route asked, still
    /// pending); nil when the verdict's advice stands.
    package static func outcomeAdvice(_ v: Verdict, in r: ReplayResult) -> String? {
        guard let o = v.outcome, o.kind.rawValue != v.verdict.rawValue || o.cause != v.cause else { return nil }
        return o.kind.advice(verdictCause: v.cause, outcomeCause: o.cause, target: r.recordIndex[v.seq]?.target,
                             appliedBy: appliedBy(o, in: r), r.words, end: r.end)
    }

    /// What applied a deferred call (V2: an engagement or a recovery decides it): joining or entering is
    /// the engagement, any other record (an interruption's end, a rebuild, CallKit's activation after a
    /// hold) or a timer (I3's retry) the recovery; nil when the record is not indexed.
    static func appliedBy(_ o: Outcome, in r: ReplayResult) -> AppliedBy? {
        guard let seq = o.seq else { return .recovery }
        guard let type = r.recordIndex[seq]?.type, let kind = RecordKind(rawValue: type) else { return nil }
        switch kind.engagement {
        case .engage?: return .engagement
        case .disengage?: return nil
        case nil: return .recovery
        }
    }

    /// What became of a call whose outcome differs from its verdict (V2), naming the deciding record.
    package static func outcomeLine(_ v: Verdict, in r: ReplayResult) -> String? {
        guard let o = v.outcome, o.kind.rawValue != v.verdict.rawValue || o.seq != v.seq else { return nil }
        let by = o.seq.map { record($0, in: r) } ?? "a timer (the retry after the system call ended)"
        switch o.kind {
        case .pending: return "still pending \(r.end.whenEnded)"
        case .superseded: return "superseded by " + by
        case .dropped: return "dropped by " + by
        case .ineffective: return "ineffective (\(o.cause?.rawValue ?? "?")) when applied by " + by
        case .applied: return "applied \(formatDuration(o.t - v.t)) later by " + by
        // L4: an accepted switchLayer whose request failed to send.
        case .rejected: return "rejected (\(o.cause?.rawValue ?? "?")) by " + by
        case .noop, .undetermined: return nil
        }
    }

    /// X4: the branch of R8 behind a prediction and its records.
    package static func predictionSource(_ p: PredictionSource, in r: ReplayResult) -> String {
        var s = "\(p.rule) (\(p.rule.title.lowercased()))"
        if let seq = p.seq { s += ": " + record(seq, in: r) } else { s += ": no record" }
        if let a = p.appliedBy { s += ", applied by " + record(a, in: r) }
        return s
    }

    /// The layer's name for the API family, for headings.
    /// R16: the route contract was not applied to a trace from `os` (macOS).
    package static func routeContractNotApplied(_ os: String) -> String {
        "route contract not applied: macOS (\(os); R16): route calls get no verdict, no route is predicted and no divergence is counted"
    }

    package static func title(_ r: ReplayResult) -> String {
        // Without a header the layer is only a default: do not name a product the file may not be.
        guard r.header != nil else { return "Trace" }
        return "\(r.words.product) trace"
    }

    /// "session ID, parts 1–3" (or "part 2", "parts 1 and 3") for a trace that is a recorded session or part
    /// of one, naming what was replayed beside the first file; nil for a trace that is not.
    package static func sessionName(_ r: ReplayResult) -> String? {
        guard let s = r.session, !s.parts.isEmpty else { return nil }
        var runs: [ClosedRange<Int>] = []
        for p in s.parts {
            if let last = runs.last, p == last.upperBound + 1 { runs[runs.count - 1] = last.lowerBound...p } else { runs.append(p...p) }
        }
        let listed = runs.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)–\($0.upperBound)" }
        return "session \(terminalSafe(s.id)), part\(s.parts.count == 1 ? "" : "s") \(proseList(listed))"
    }

    /// "seq 12 api.setRoute at 3.200s (setAudioRoute(.speaker))" for a seq the result indexed.
    package static func record(_ seq: Int, in r: ReplayResult) -> String {
        guard let rec = r.recordIndex[seq] else { return "seq \(seq)" }
        return "seq \(seq) \(rec.type) at \(formatDuration(rec.t))" + (rec.detail.isEmpty ? "" : " (\(terminalSafe(rec.detail)))")
    }
}
