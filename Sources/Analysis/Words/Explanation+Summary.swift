import Contract
import Replay
import TraceModel

// The summary and the grouped findings: every count matches the list it summarises.
extension Explanation {
    /// Codes of the kinds a reconnect resets (Q4: the quality baseline and the speaker list).
    static let resetByReconnect: [FindingCode] = [.qualitySpuriousChange, .qualityMissedChange, .speakersMismatch]

    /// Findings other than those told with the calls and the divergences, grouped by code and
    /// severity (and, for the kinds a reconnect resets, by the reconnect before them), most severe
    /// first, then by time. `evidence` and `advice`, when given, are the result's system-log evidence and
    /// finding advice (built once per result).
    package static func findingGroups(_ r: ReplayResult, evidence: SystemLogEvidence? = nil,
                                      advice: FindingAdvice? = nil) -> [FindingGroup] {
        struct Key: Hashable { var code: FindingCode; var severity: Severity; var epoch: Int? }
        let reconnects = r.quality?.reconnectMoments ?? []
        let reconnectTimes = LastAtOrBefore(reconnects.map(\.t))
        // Each group where it is first met, found by its key once per finding and counted in place.
        var out: [FindingGroup] = []
        // A long trace's findings come in runs of one group: the last group found is asked first.
        var groups: [Key: Int] = [:]
        var last: (key: Key, group: Int)?
        for (i, f) in r.findings.enumerated() where f.code != .routeIneffective && f.code != .routeDivergence {
            let reconnect = resetByReconnect.contains(f.code) ? reconnectTimes.index(atOrBefore: f.t).map { reconnects[$0] } : nil
            let key = Key(code: f.code, severity: f.severity, epoch: reconnect?.seq)
            if let g = last.flatMap({ $0.key == key ? $0.group : nil }) ?? groups[key] {
                last = (key, g)
                out[g].count += 1
                out[g].lastT = f.t
            } else {
                groups[key] = out.count
                last = (key, out.count)
                out.append(FindingGroup(code: f.code, severity: f.severity, rule: f.rule, count: 1, first: f, lastT: f.t,
                                        afterReconnect: reconnect, headline: "", lines: [], firstIndex: i))
            }
        }
        let advice = advice ?? FindingAdvice(r)
        let evidence = evidence ?? SystemLogEvidence(r)
        for i in out.indices { describe(&out[i], r, advice: advice, evidence: evidence) }
        return out.sorted { ($0.severity, -$0.first.t) > ($1.severity, -$1.first.t) }
    }

    static func describe(_ g: inout FindingGroup, _ r: ReplayResult, advice: FindingAdvice, evidence: SystemLogEvidence) {
        let f = g.first
        var head = f.severity.rawValue.padded(8) + f.code.rawValue + (f.rule.map { " [\($0)]" } ?? "")
        if g.count == 1 {
            head += " at \(formatDuration(f.t))" + (f.seqs.isEmpty ? "" : ", seq " + f.seqs.map(String.init).joined(separator: ", "))
        } else {
            head += " ×\(g.count) from \(formatDuration(f.t)) to \(formatDuration(g.lastT)); the first at seq "
                + f.seqs.map(String.init).joined(separator: ", ")
        }
        g.headline = head
        var lines = [Line(nil, f.message)]
        if let rc = g.afterReconnect {
            lines.append(Line("after", "the reconnect at \(formatDuration(rc.t)) (seq \(rc.seq)): a reconnect clears the quality "
                + "baseline and the active-speaker list (Q4); an SDK that kept them across it reports exactly this"))
        }
        // E1: what the system log names beside the finding (the component, what the system saw).
        if let e = evidence.item(forFinding: g.firstIndex) { lines.append(Line("from the system log", e.text)) }
        lines.append(Line("advice", advice.advice(g.firstIndex, r)))
        if let gap = r.droppedRange(overlapping: f.t, g.lastT) { lines.append(uncertain(gap)) }
        g.lines = lines
    }

    func summaryLines(_ r: ReplayResult, failingCount: Int, _ w: LayerWords) -> [SummaryLine] {
        // The counts are kept by the replay over every call, as outcomes are decided.
        var out: [SummaryLine] = []
        func line(_ s: String, nested: Bool = false) { out.append(SummaryLine(text: s, nested: nested)) }
        let total = r.verdictCount
        var head = "\(failingCount) of \(total) call\(total == 1 ? "" : "s") did not take effect"
        if r.layerCallCount > 0 && r.routeContractApplied, failingCount > 0 {
            // The parenthesis counts the calls that did not take effect, by kind.
            let layer = r.callFates.filter { $0.key.call == .switchLayer && $0.key.didNotTakeEffect }.reduce(0) { $0 + $1.value }
            head += " (\(failingCount - layer) route, \(layer) layer)"
        }
        line(head)
        for (what, n) in notTakingEffectBreakdown(r, w) { line("\(n) \(what)", nested: true) }
        if r.undeterminedCalls > 0 {
            line("\(r.undeterminedCalls) call\(r.undeterminedCalls == 1 ? "" : "s") undetermined: the state before this part of the session is unknown, so nothing is said of \(r.undeterminedCalls == 1 ? "it" : "them")", nested: true)
        }
        if !lateCalls.isEmpty {
            line("\(lateCalls.count) deferred call\(lateCalls.count == 1 ? "" : "s") took effect later (listed under Calls that took effect late)")
        }
        let unexplained = r.unexplainedDivergenceCount, unknownStart = r.unknownStartDivergenceCount
        let lost = r.uncertainDivergenceCount - unknownStart
        if let note = routeContractNotApplied { line(note) } else { line("\(r.divergenceCount) route divergence\(r.divergenceCount == 1 ? "" : "s") (\(unexplained) unexplained, "
            + "\(r.divergenceCount - unexplained - r.uncertainDivergenceCount) explained"
            + (lost > 0 ? ", \(lost) uncertain: records were lost while \(lost == 1 ? "it was" : "they were") open" : "")
            + (unknownStart > 0 ? ", \(unknownStart) from an unknown start state, not judged" : "") + ")") }
        let counts = Severity.allCases.reversed().map { s in (s, r.findings.filter { $0.severity == s }.count) }
        var findings = "findings: " + counts.map { "\($0.1) \($0.0.rawValue)\($0.1 == 1 || $0.0 == .info ? "" : "s")" }.joined(separator: ", ")
        let withCalls = r.findings.filter { $0.code == .routeIneffective }.count
        let withDivergences = r.findings.filter { $0.code == .routeDivergence }.count
        let grouped = groups.reduce(0) { $0 + $1.count }
        var parts: [String] = []
        if withCalls > 0 { parts.append("\(withCalls) with the calls") }
        if withDivergences > 0 { parts.append("\(withDivergences) with the divergences") }
        if grouped > 0 { parts.append("\(grouped) under Findings in \(groups.count) group\(groups.count == 1 ? "" : "s")") }
        if !parts.isEmpty { findings += " (" + parts.joined(separator: ", ") + ")" }
        if r.findingsDropped > 0 { findings += "; \(r.findingsDropped) more not kept" }
        line(findings)
        if let q = r.quality, q.reports > 0 { line("quality: " + QualityText.oneLine(q)) }
        if let q = r.quality, q.gapCount > 0 {
            let missing = r.session?.missing.map { (fromT: $0.afterT ?? 0, toT: $0.beforeT) } ?? []
            let known = r.lost.map { (fromT: $0.fromT, toT: $0.toT, why: $0.cause.words + " (\($0.seqText))") }
            line(QualityText.gapsSentence(q, missing: missing, known: known))
        }
        if systemLogRecords > 0 {
            let named = systemLog.count
            line("system log: \(systemLogRecords) record\(systemLogRecords == 1 ? "" : "s") imported (\(systemLogTiming ?? "")); "
                + (named == 0 ? "nothing here is named from it" : "\(named) cause\(named == 1 ? "" : "s") named from it (under From the system log)"))
        }
        for note in sessionNotes { line((note.withheld ? "partial: " : "session: ") + note.text) }
        for note in damageNotes { line("damage: " + note) }
        if let why = unexplainable {
            line("Cannot be explained: " + why + ".")
        } else if !unread.isEmpty {
            line("Not all of it could be read: " + unread.joined(separator: "; ") + "; no all-clear is given, and nothing is said of what was lost"
                + (needsAttentionBeyondPartial(r) ? "; needs attention: see below." : "."))
        } else if partial {
            line("Partial: nothing is said of what is missing or of the state before it is known" + (needsAttentionBeyondPartial(r) ? "; needs attention: see below." : "."))
        } else if r.session?.isIncomplete ?? false {
            // A checkpoint is the recorder's word for the state before the part: nothing here can check it.
            line("Partial: judged from a checkpoint without the parts before it, which nothing here can check, so no all-clear is given"
                + (needsAttentionBeyondPartial(r) ? "; needs attention: see below." : "."))
        } else {
            line(needsAttention ? "Needs attention: see below." : "Nothing is wrong: every call did what the contract predicts.")
        }
        return out
    }

    /// Whether something beyond the partial coverage needs attention.
    func needsAttentionBeyondPartial(_ r: ReplayResult) -> Bool {
        !r.divergences.isEmpty || r.findings.contains { $0.severity >= .warning } || r.findingsDropped > 0
    }

    /// The calls that did not take effect, by what became of them and why.
    func notTakingEffectBreakdown(_ r: ReplayResult, _ w: LayerWords) -> [(String, Int)] {
        var by: [String: Int] = [:]
        for (key, n) in r.notTakingEffectCounts {
            by["\(key.kind.rawValue): \(key.cause.map { $0.reason(w) } ?? Wording.outcome(key.kind, w, end: r.end))", default: 0] += n
        }
        return by.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
    }
}
