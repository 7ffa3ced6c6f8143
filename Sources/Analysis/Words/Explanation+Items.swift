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

    /// What the explanation of a call looks up in the whole result, indexed once: the actual route at a
    /// time, and the first finding that the session could not use bluetooth. Reports that tell many calls
    /// build it once (`FindingAdvice` holds one); a single call is told with one built for it when needed.
    package struct Lookups: Sendable {
        /// The actual route's segments by start time.
        let actualRoutes: LastAtOrBefore
        /// The indexes of the `session.missingAllowBluetooth` findings, and their times.
        let missingAllowBluetooth: [Int]
        let missingAllowBluetoothByTime: FirstAtOrBefore
        /// Each cause's advice in the result's words, and per route asked for a cause whose advice names it:
        /// phrased once per result rather than once per call told (a long trace tells thousands of calls).
        let causeAdvice: [CauseAdviceKey: String]
        /// The result's layer words, for a cause phrased on demand.
        let words: LayerWords
        /// `predictedMax[i]`: the latest time of the predicted segments 0...i (non-decreasing in i).
        let predictedMax: [Int64]

        /// Indexes `r`.
        package init(_ r: ReplayResult) {
            actualRoutes = LastAtOrBefore(r.actualTimeline.map(\.t))
            missingAllowBluetooth = r.findings.indices.filter { r.findings[$0].code == .sessionMissingAllowBluetooth }
            missingAllowBluetoothByTime = FirstAtOrBefore(missingAllowBluetooth.map { r.findings[$0].t })
            var advice: [CauseAdviceKey: String] = [:]
            for c in VerdictCause.allCases {
                advice[CauseAdviceKey(cause: c, target: nil)] = c.advice(r.words)
                guard c.adviceNamesTarget else { continue }
                for t in RouteTarget.allCases { advice[CauseAdviceKey(cause: c, target: t)] = c.advice(r.words, target: t) }
            }
            causeAdvice = advice
            words = r.words
            var latest = Int64.min
            predictedMax = r.predictedTimeline.map { latest = max(latest, $0.t); return latest }
        }

        /// The first predicted segment that any segment at or after `t` can be: every one before it is earlier
        /// than `t` (sorted or not), so a scan for those at or after `t` may start there.
        func firstPredicted(atOrAfter t: Int64) -> Int {
            var lo = 0, hi = predictedMax.count  // the first i with predictedMax[i] >= t, or count for none
            while lo < hi {
                let mid = (lo + hi) / 2
                if predictedMax[mid] >= t { hi = mid } else { lo = mid + 1 }
            }
            return lo
        }

        /// The advice of cause `c` in the result's words (`VerdictCause.advice`), for the route asked where it names it.
        func advice(_ c: VerdictCause, target: RouteTarget? = nil) -> String {
            causeAdvice[CauseAdviceKey(cause: c, target: c.adviceNamesTarget ? target : nil)] ?? c.advice(words, target: target)
        }

        /// The actual route at `t` (the last observation at or before it).
        func actualRoute(at t: Int64, _ r: ReplayResult) -> Route? {
            actualRoutes.index(atOrBefore: t).flatMap { r.actualTimeline[$0].route }
        }

        /// The first finding that the session cannot use bluetooth raised at or before `t`.
        func missingAllowBluetooth(atOrBefore t: Int64, _ r: ReplayResult) -> Finding? {
            missingAllowBluetoothByTime.index(atOrBefore: t).map { r.findings[missingAllowBluetooth[$0]] }
        }
    }

    /// A cause, and the route asked where its advice names it: the key of `Lookups`' phrased advice.
    struct CauseAdviceKey: Hashable, Sendable {
        let cause: VerdictCause
        let target: RouteTarget?
    }

    /// A call told as an item: headline, why, the records involved, outcome and advice. `lookups`, when
    /// given, is the result's index (see `Lookups`).
    package static func call(_ v: Verdict, _ r: ReplayResult, lookups: Lookups? = nil) -> Call {
        let w = r.words
        var head = "seq \(v.seq) at \(formatDuration(v.t))  \(v.call.rawValue)\(v.api.map { " " + TextCap.clip($0) } ?? "") → \(v.verdict.rawValue)"
        head += (v.cause.map { " (\($0.rawValue))" } ?? "") + " [\(v.rule)]"
        var lines: [Line] = []
        let causeRecord = v.causeSeq.map { Line("cause record", Wording.record($0, in: r)) }
        if v.cause == .externalRouteActive, let unused = unusedExternalDevice(v, r, lookups ?? Lookups(r)) {
            // The contract's verdict stands, but the text must not deny what the device did.
            lines += [unused.lines[0]] + (causeRecord.map { [$0] } ?? []) + unused.lines.dropFirst()
        } else {
            if let f = finding(for: v, in: r) {
                lines.append(Line("why", f.message))
            } else if let c = v.cause {
                let device = v.causeSeq.flatMap { r.recordIndex[$0] }
                lines.append(Line("why", c.reason(w, device: device?.deviceKind, name: device?.deviceName)))
            }
            if let causeRecord { lines.append(causeRecord) }
            if let outcome = Wording.outcomeLine(v, in: r) { lines.append(Line("outcome", outcome + " [V2]")) }
        }
        if let effect = laterEffect(v, r, lookups: lookups) { lines.append(laterEffectLine(v, effect)) }
        if let advice = advice(for: v, r, lookups: lookups) { lines.append(Line("advice", advice)) }
        if let gap = r.droppedRange(overlapping: v.t, v.outcome?.t ?? v.t) { lines.append(uncertain(gap)) }
        return Call(verdict: v, headline: head, lines: lines)
    }

    /// What the app should do about a call: decided here, once, for every report (the text, the HTML
    /// report, `--json`'s verdicts and the finding that explains each, the Chrome export). For a call the
    /// contract judges blocked by an external device the device was not using, what explains that; for a
    /// call whose finding was raised where its outcome was decided (L4: the send failed), that finding's;
    /// for a call whose outcome differs from its verdict (V2), the outcome's advice (for one applied late,
    /// by what applied it); else the advice of the finding that explains the verdict, or of its cause,
    /// worded for the route asked where the cause's advice names it. Nil for a call with nothing to advise.
    /// `lookups`, when given, is the result's index (see `Lookups`).
    package static func advice(for v: Verdict, _ r: ReplayResult, lookups: Lookups? = nil) -> String? {
        if v.cause == .externalRouteActive, let unused = unusedExternalDevice(v, r, lookups ?? Lookups(r)) { return unused.advice }
        let f = finding(for: v, in: r)
        if let f, let decided = v.outcome?.seq, decided != v.seq, f.seqs.first == decided { return f.advice }
        if let outcome = Wording.outcomeAdvice(v, in: r) { return outcome }
        let target = r.recordIndex[v.seq]?.target
        // The engines phrase a cause's advice without the call's target (R4's button is the one asked).
        if let c = v.cause, c.adviceNamesTarget, let target { return lookups?.advice(c, target: target) ?? c.advice(r.words, target: target) }
        return f?.advice ?? v.cause.map { lookups?.advice($0) ?? $0.advice(r.words) }
    }

    /// The advice of a call as far as the replay knows it at the call (a `replay --json` step): that of the
    /// finding made with its verdict, among `findings` (the step's), in words that do not depend on what
    /// became of the call, which is decided later (`advice(for:)` has it); nil without one.
    package static func adviceAtCall(_ v: Verdict, findings: [Finding]) -> String? {
        findings.first { $0.call == v.seq }?.advice
    }

    /// The advice each finding is told with, where findings are listed one by one (`--json`, the HTML
    /// report's markers, the Chrome export) or grouped: a finding that explains a call's verdict
    /// (`route.ineffective`, a layer call's finding) is told with the call's advice (`advice(for:)`), so
    /// that no report gives the verdict's advice for a call whose outcome says otherwise; any other its own.
    package struct FindingAdvice: Sendable {
        /// The index in the result's verdicts of the verdict each explaining finding belongs to, by the
        /// finding's index (`none`: none): an array, as every finding of a long trace is looked up.
        private let calls: [Int]
        private static let none = -1
        /// The result's index for telling calls.
        package let lookups: Lookups

        /// Links the findings of `r` to their calls.
        package init(_ r: ReplayResult) {
            var calls = [Int](repeating: Self.none, count: r.findings.count)
            // The last verdict of a finding wins, as it would in a table; a finding index out of range
            // names no finding (no finding is looked up by it).
            for (i, v) in r.verdicts.enumerated() {
                if let f = v.finding, f >= 0, f < calls.count { calls[f] = i }
            }
            self.calls = calls
            lookups = Lookups(r)
        }

        /// The advice of finding `index` of `r`.
        package func advice(_ index: Int, _ r: ReplayResult) -> String {
            let call = index >= 0 && index < calls.count ? calls[index] : Self.none
            return (call == Self.none ? nil : Explanation.advice(for: r.verdicts[call], r, lookups: lookups))
                ?? r.findings[index].advice
        }

        /// The advice of a call (`Explanation.advice(for:)`), with this result's index.
        package func advice(for v: Verdict, _ r: ReplayResult) -> String? {
            Explanation.advice(for: v, r, lookups: lookups)
        }
    }

    /// For a call the contract judges blocked by an external device while the device is not using that
    /// device: what is true, and where the explanation lies (R11: a session that cannot use bluetooth,
    /// or nothing recorded), with what to do about it.
    static func unusedExternalDevice(_ v: Verdict, _ r: ReplayResult, _ lookups: Lookups) -> (lines: [Line], advice: String)? {
        guard let device = v.causeSeq.flatMap({ r.recordIndex[$0] }), let atCall = lookups.actualRoute(at: v.t, r),
              atCall != .bluetooth, atCall != .headset, atCall != .unknown else { return nil }
        // Device words (v4): the device by its kind (and name), never "bluetooth" for another kind.
        let deviceKind = device.deviceKind ?? .bluetooth
        let named = deviceKind.words(named: device.deviceName)
        let kind = named.hasPrefix("an ") ? String(named.dropFirst(3)) : named.hasPrefix("a ") ? String(named.dropFirst(2)) : named
        let after = lookups.actualRoute(at: v.t + 1000, r)
        let target = r.recordIndex[v.seq]?.target?.route
        var lines = [Line("why", "a \(kind) is connected (seq \(v.causeSeq!)), but the device is not using it: it played the "
            + "\(atCall.rawValue) when the call came" + (after != nil && after == target && after != atCall
                ? ", and the call did switch the route to the \(after!.rawValue)" : ""))]
        lines.append(Line("verdict", "the contract predicts that a connected \(kind) has the route, so it judges the call "
            + "ineffective (R4); the device did otherwise"))
        if let missing = lookups.missingAllowBluetooth(atOrBefore: v.t, r), deviceKind == .bluetooth {
            lines.append(Line("explained by", "session.missingAllowBluetooth (seq \(missing.seqs.first ?? 0)): the call session "
                + "cannot use bluetooth, so iOS keeps the call on the built-in route (R11)"))
            return (lines, "Activate the call session with .allowBluetooth in the category options (mode "
                + ".voiceChat or .videoChat implies it); until then bluetooth headsets are never used for the \(r.words.session).")
        }
        lines.append(Line("explained by", deviceKind == .bluetooth
            ? "nothing recorded: the session could use the \(kind) (its mode implies allowBluetooth), so see the route divergence"
            : "nothing recorded: see the route divergence"))
        return (lines, "Escalate with this trace: the device did not use a connected \(kind) that the "
            + "contract says has the route. Meanwhile show \(r.words.currentRouteAPI) in the UI, not the call's success.")
    }

    /// The line that marks an item as uncertain: the recorder dropped records where it happened.
    static func uncertain(_ gap: DroppedRange) -> Line {
        if let reason = gap.pause {
            return Line("uncertain", "the recorder recorded nothing from \(formatDuration(gap.fromT)) to \(formatDuration(gap.toT)) "
                + "(\(reason.words); seq \(gap.seq) trace.paused): what happened there is not in the trace")
        }
        return Line("uncertain", "the recorder dropped \(gap.count) record\(gap.count == 1 ? "" : "s") from \(formatDuration(gap.fromT)) "
            + "to \(formatDuration(gap.toT)) (seq \(gap.seq) trace.dropped): what happened there is not in the trace")
    }

    /// The line that marks an item as uncertain: records were lost where it happened (X5).
    static func uncertain(_ lost: LostStretch) -> Line {
        Line("uncertain", "\(lost.cause.words): \(lost.seqText) lost between \(formatDuration(lost.fromT)) and \(formatDuration(lost.toT))"
            + (lost.untilSeq.map { ", the state vouched for again by the checkpoint at seq \($0)" } ?? ", and no checkpoint vouched for the state after it")
            + " [X5]")
    }

    package static func divergence(_ d: Divergence, index: Int, _ r: ReplayResult) -> DivergenceItem {
        let head = "\(d.explained ? "explained  " : d.startStateUnknown ? "unknown start state" : d.uncertain ? "uncertain (evidence lost)" : "UNEXPLAINED")  \(formatDuration(d.start)) – \(formatDuration(d.end))"
            + (d.openAtEnd ? " (\(r.end.stillOpen))" : "")
            + ": predicted \(d.predicted.rawValue), device played \(d.actual.rawValue) [\(d.explained ? "X3" : d.uncertain && !d.startStateUnknown ? "X5" : "X2")]"
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
        let gap = r.droppedRange(overlapping: d.start, d.end)
        if let gap { lines.append(uncertain(gap)) }
        if d.uncertain, let lost = d.evidenceLost, lost.cause != .dropped || gap == nil { lines.append(uncertain(lost)) }
        return DivergenceItem(divergence: d, index: index, headline: head, lines: lines)
    }

    /// The later effect in words, for the line under the call.
    static func laterEffectLine(_ v: Verdict, _ e: LaterEffect) -> Line {
        Line("later effect", "the \(e.route.rawValue) override from seq \(v.seq) took the call at seq \(e.seq) "
            + "(\(formatDuration(e.t))), when \(e.device) disconnected (R5): what the tap asked for became audible then")
    }
}
