import Contract
import Replay
import TraceModel

// How each item of an explanation is told: calls with what became of them, divergences with why the
// prediction was what it was. The prose of causes and findings is the engines' (one phrasing each);
// this file only arranges it and adds what only the whole replay knows.
extension Explanation {
    /// The finding that carries the message and advice for a verdict, if any (linked by the replay).
    static func finding(for v: Verdict, in r: ReplayResult) -> Finding? {
        v.finding.map { r.findings[$0] }
    }

    public static func call(_ v: Verdict, _ r: ReplayResult) -> Call {
        let w = r.words
        var head = "seq \(v.seq) at \(formatDuration(v.t))  \(v.call.rawValue)\(v.api.map { " " + TextCap.clip($0) } ?? "") → \(v.verdict.rawValue)"
        head += (v.cause.map { " (\($0.rawValue))" } ?? "") + " [\(v.rule)]"
        var lines: [Line] = []
        let causeRecord = v.causeSeq.map { Line("cause record", Wording.record($0, in: r)) }
        if v.cause == .externalRouteActive, let unused = unusedExternalDevice(v, r) {
            // The contract's verdict stands, but the text must not deny what the device did.
            lines += [unused[0]] + (causeRecord.map { [$0] } ?? []) + unused.dropFirst()
        } else if let f = finding(for: v, in: r) {
            lines.append(Line("why", f.message))
            if let causeRecord { lines.append(causeRecord) }
            if let outcome = Wording.outcomeLine(v, in: r) { lines.append(Line("outcome", outcome + " [V2]")) }
            lines.append(Line("advice", Wording.outcomeAdvice(v, w, end: r.end) ?? f.advice))
        } else {
            if let c = v.cause { lines.append(Line("why", Wording.cause(c, w))) }
            if let causeRecord { lines.append(causeRecord) }
            if let outcome = Wording.outcomeLine(v, in: r) { lines.append(Line("outcome", outcome + " [V2]")) }
            if let advice = Wording.outcomeAdvice(v, w, end: r.end) ?? v.cause.map({ Wording.advice($0, w) }) { lines.append(Line("advice", advice)) }
        }
        if let gap = r.droppedRange(overlapping: v.t, v.outcome?.t ?? v.t) { lines.append(uncertain(gap)) }
        return Call(verdict: v, headline: head, lines: lines)
    }

    /// For a call the contract judges blocked by an external device while the device is not using that
    /// device: what is true, and where the explanation lies (R11: a session that cannot use bluetooth,
    /// or nothing recorded).
    static func unusedExternalDevice(_ v: Verdict, _ r: ReplayResult) -> [Line]? {
        guard let device = v.causeSeq.flatMap({ r.recordIndex[$0] }), let atCall = actualRoute(at: v.t, r),
              atCall != .bluetooth, atCall != .headset, atCall != .unknown else { return nil }
        let kind = device.deviceKind == .headset ? "wired headset" : "bluetooth device"
        let after = actualRoute(at: v.t + 1000, r)
        let target = r.recordIndex[v.seq]?.target?.route
        var lines = [Line("why", "a \(kind) is connected (seq \(v.causeSeq!)), but the device is not using it: it played the "
            + "\(atCall.rawValue) when the call came" + (after != nil && after == target && after != atCall
                ? ", and the call did switch the route to the \(after!.rawValue)" : ""))]
        lines.append(Line("verdict", "the contract predicts that a connected \(kind) has the route, so it judges the call "
            + "ineffective (R4); the device did otherwise"))
        if let missing = r.findings.first(where: { $0.code == .sessionMissingAllowBluetooth && $0.t <= v.t }), kind == "bluetooth device" {
            lines.append(Line("explained by", "session.missingAllowBluetooth (seq \(missing.seqs.first ?? 0)): the call session "
                + "cannot use bluetooth, so iOS keeps the call on the built-in route (R11)"))
            lines.append(Line("advice", "Activate the call session with .allowBluetooth in the category options (mode "
                + ".voiceChat or .videoChat implies it); until then bluetooth headsets are never used for the \(r.words.session)."))
        } else {
            lines.append(Line("explained by", "nothing recorded: the session could use the \(kind) (its mode implies "
                + "allowBluetooth), so see the route divergence"))
            lines.append(Line("advice", "Escalate with this trace: the device did not use a connected \(kind) that the "
                + "contract says has the route. Meanwhile show \(r.words.currentRouteAPI) in the UI, not the call's success."))
        }
        return lines
    }

    /// The line that marks an item as uncertain: the recorder dropped records where it happened.
    static func uncertain(_ gap: DroppedRange) -> Line {
        Line("uncertain", "the recorder dropped \(gap.count) record\(gap.count == 1 ? "" : "s") from \(formatDuration(gap.fromT)) "
            + "to \(formatDuration(gap.toT)) (seq \(gap.seq) trace.dropped): what happened there is not in the trace")
    }

    /// The actual route at `t` (the last observation at or before it).
    static func actualRoute(at t: Int64, _ r: ReplayResult) -> Route? {
        r.actualTimeline.last { $0.t <= t }?.route
    }

    public static func divergence(_ d: Divergence, index: Int, _ r: ReplayResult) -> DivergenceItem {
        let head = "\(d.explained ? "explained  " : d.startStateUnknown ? "unknown start state" : "UNEXPLAINED")  \(formatDuration(d.start)) – \(formatDuration(d.end))"
            + (d.openAtEnd ? " (\(r.end.stillOpen))" : "")
            + ": predicted \(d.predicted.rawValue), device played \(d.actual.rawValue) [\(d.explained ? "X3" : "X2")]"
        var lines: [Line] = []
        if let p = d.predictedBy {
            lines.append(Line("prediction set by", Wording.predictionSource(p, in: r) + " [X4]"))
        } else if let s = d.predictedSeq {
            lines.append(Line("prediction", "set by " + Wording.record(s, in: r)))
        }
        if let s = d.actualSeq { lines.append(Line("actual route", "from " + Wording.record(s, in: r))) }
        if let a = d.afterAppliedCall {
            lines.append(Line("after", "the applied call " + Wording.record(a, in: r) + ": accepted, but it did not take effect"))
        }
        if let by = d.explainedBy {
            lines.append(Line("explained by", by.rawValue + (d.explainedBySeq.map { " (" + Wording.record($0, in: r) + ")" } ?? "")))
        }
        if let f = d.finding.map({ r.findings[$0] }) { lines.append(Line("advice", f.advice)) }
        if let gap = r.droppedRange(overlapping: d.start, d.end) { lines.append(uncertain(gap)) }
        return DivergenceItem(divergence: d, index: index, headline: head, lines: lines)
    }
}
