import Contract
import TraceModel

/// The one writer of a `ReplayResult`: counts, caps, and the links between verdicts and their findings.
/// Every verdict, finding, decided outcome and divergence the replay makes comes here; a finding revised
/// later (the divergence's, X3) arrives as a new finding that takes the kept one's place.
struct ResultBuilder {
    /// The result so far.
    private(set) var result: ReplayResult
    let options: ReplayOptions
    /// Where each kept verdict is, by its call's seq, once the kept verdicts stopped arriving in increasing
    /// order of seq (`verdictsInOrder`); until then a verdict is found by halving the kept verdicts, and no
    /// seq is hashed.
    private var verdictIndex: [Int: Int] = [:]
    /// Every kept verdict's seq is greater than the one kept before it.
    private var verdictsInOrder = true
    /// Route calls whose outcome is still pending (V2): at most one per part of the route state.
    private var pendingCalls: [Int: PendingCall] = [:]
    /// The `route.divergence` finding of the divergence open now, once it counts.
    private var openDivergenceFinding: Int?
    /// The findings counted so far, by code, at the code's place in the catalogue (`FindingCode.allCases`):
    /// a count adds into an array instead of hashing the code into the result's dictionary, which is
    /// written once, when the replay finishes (`settleFindingCounts`).
    private var countsByCode = [Int](repeating: 0, count: FindingCode.allCases.count)
    /// The codes counted, in the order each was first counted: the dictionary is written in that order, so
    /// that it is laid out as counting into it one finding at a time laid it out.
    private(set) var codesCounted: [FindingCode] = []
    /// The calls' fates counted so far, each with its count, in the order each was first counted: a verdict
    /// finds its fate by comparing a few small values, not by hashing it into the result's dictionary,
    /// which is written once, when the replay finishes (`settleFindingCounts`).
    private var fates: [(fate: CallFate, count: Int)] = []
    /// Where each fate is in `fates`, once they are more than `fatesScanned` (only a hostile trace has so many).
    private var fateIndex: [CallFate: Int] = [:]
    static let fatesScanned = 16
    /// Findings kept at most: the options' cap, or none when findings are only counted (`buildsFindings`).
    private let findingsKept: Int
    /// Findings dropped (counted, not kept) up to which each error among them is counted in
    /// `keptErrorFindings`: the options' cap when findings are only counted (every finding is then dropped,
    /// and the first ones are those the result would have kept), else none (the kept ones are counted).
    private let errorsCountedWhileDropped: Int

    init(file: String, options: ReplayOptions) {
        result = ReplayResult(file: file)
        result.matchWindowMs = options.matchWindowMs
        self.options = options
        findingsKept = options.buildsFindings ? options.maxFindings : 0
        errorsCountedWhileDropped = options.buildsFindings ? 0 : options.maxFindings
    }

    /// Counts a finding of error severity other than `route.divergence` among those the result keeps
    /// (would keep, when findings are only counted).
    @inline(__always)
    private mutating func countError(_ code: FindingCode, _ severity: Severity) {
        if case .error = severity, code != .routeDivergence { result.keptErrorFindings += 1 }
    }

    /// Counts a dropped finding's error (`countError`) when findings are only counted.
    @inline(never)
    private mutating func countDroppedError(_ code: FindingCode) { countError(code, code.severity) }

    /// Counts a dropped finding, and its error among the first the result would keep when findings are
    /// only counted: a finding that was not built is an error exactly when its code is (for every code but
    /// `route.divergence`, `FindingCountTests`).
    @inline(__always)
    private mutating func dropped(_ code: FindingCode) {
        result.findingsDropped += 1
        if result.findingsDropped <= errorsCountedWhileDropped { countDroppedError(code) }
    }

    /// How many findings with this code were raised so far, kept or counted.
    func findingCount(_ code: FindingCode) -> Int { countsByCode[Self.place(code)] }

    /// The code's place in the catalogue: a code is its one-byte tag, numbered in the catalogue's order
    /// (`FindingCountTests` holds every code to its place in `FindingCode.allCases`).
    @inline(__always)
    static func place(_ code: FindingCode) -> Int {
        MemoryLayout<FindingCode>.size == 1 ? Int(unsafeBitCast(code, to: UInt8.self)) : FindingCode.allCases.firstIndex(of: code)!
    }

    /// Counts one finding with this code.
    @inline(__always)
    private mutating func countFinding(_ code: FindingCode) {
        let i = Self.place(code)
        if countsByCode[i] == 0 { codesCounted.append(code) }
        countsByCode[i] += 1
    }

    /// Writes the findings counted into the result's count by code (`findingCounts`), each code in the order
    /// it was first counted, and the calls' fates counted into `callFates` (those whose count is not 0).
    mutating func settleFindingCounts() {
        var counts: [FindingCode: Int] = [:]
        for code in codesCounted { counts[code] = countsByCode[Self.place(code)] }
        result.findingCounts = counts
        var byFate: [CallFate: Int] = [:]
        for (fate, n) in fates where n != 0 { byFate[fate] = n }
        result.callFates = byFate
    }

    /// Adds `delta` to the count of calls with this fate.
    private mutating func countFate(_ fate: CallFate, _ delta: Int) {
        if fates.count <= Self.fatesScanned {
            var i = 0
            while i < fates.count {
                if fates[i].fate == fate {
                    fates[i].count += delta
                    return
                }
                i += 1
            }
            if fates.count == Self.fatesScanned {
                for (k, entry) in fates.enumerated() { fateIndex[entry.fate] = k }
            }
        } else if let i = fateIndex[fate] {
            fates[i].count += delta
            return
        }
        if fates.count >= Self.fatesScanned { fateIndex[fate] = fates.count }
        fates.append((fate, delta))
    }

    /// Whether a finding raised now may be kept (or is only counted, when nobody observes).
    var keepsFindings: Bool {
        @inline(__always) get { result.findings.count < findingsKept }
    }

    /// The verdict on the call with this seq, if it was kept.
    func verdict(for seq: Int) -> Verdict? { keptVerdict(seq).map { result.verdicts[$0] } }

    /// Where the kept verdict on the call with this seq is (the last kept for it).
    private func keptVerdict(_ seq: Int) -> Int? {
        guard verdictsInOrder else { return verdictIndex[seq] }
        let i = result.verdicts.partitionPoint(in: result.verdicts.indices) { $0.seq < seq }
        return i < result.verdicts.count && result.verdicts[i].seq == seq ? i : nil
    }

    /// Notes where a verdict about to be kept goes: the first one out of order indexes those kept before it.
    private mutating func keeping(_ seq: Int) {
        if verdictsInOrder {
            guard let last = result.verdicts.last, last.seq >= seq else { return }
            verdictsInOrder = false
            for (i, v) in result.verdicts.enumerated() { verdictIndex[v.seq] = i }
        }
        verdictIndex[seq] = result.verdicts.count
    }

    /// Counts a verdict and keeps it (up to the cap); a deferred call's outcome waits (V2).
    mutating func add(_ v: Verdict) {
        result.verdictCount += 1
        if v.call == .switchLayer { result.layerCallCount += 1 }
        if v.didNotTakeEffect { result.notTakingEffectCounts[v.notTakingEffectKey, default: 0] += 1 }
        if v.verdict == .undetermined { result.undeterminedCalls += 1 }
        countFate(CallFate(v), 1)
        var kept: Int?
        if result.verdicts.count < options.maxVerdicts {
            kept = result.verdicts.count
            keeping(v.seq)
            result.verdicts.append(v)
        } else {
            result.verdictsDropped += 1
        }
        if v.outcome?.kind == .pending { pendingCalls[v.seq] = PendingCall(key: v.notTakingEffectKey, fate: CallFate(v), verdict: kept) }
    }

    /// Counts a finding and keeps it (up to the cap), linked to the verdict it explains; its index among the
    /// kept findings.
    @discardableResult
    mutating func add(_ f: Finding) -> Int? {
        countFinding(f.code)
        guard result.findings.count < findingsKept else {
            dropped(f.code)
            return nil
        }
        countError(f.code, f.severity)
        let kept = result.findings.count
        result.findings.append(f)
        if let call = f.call, let v = keptVerdict(call) { result.verdicts[v].finding = kept }
        return kept
    }

    /// Counts a finding that was not built because the result keeps no more findings; nil, as `add` gives
    /// for a finding it does not keep.
    mutating func add(code: FindingCode) -> Int? {
        countFinding(code)
        dropped(code)
        return nil
    }

    /// Counts a finding an engine did not build: the result keeps no more findings.
    mutating func count(_ c: FindingCount) {
        countFinding(c.code)
        dropped(c.code)
    }

    /// The engine recovered from an interruption.
    mutating func recovered() { result.recoveries += 1 }

    /// What the divergence tracker concluded (X2, X3).
    mutating func divergence(_ o: DivergenceTracker.Output) {
        switch o {
        case .counted(_, let f):
            // Phrased only when kept; past the cap it is counted by its code.
            openDivergenceFinding = keepsFindings ? add(f.finding) : add(code: f.code)
        case .closed(var d, let final):
            d.finding = openDivergenceFinding
            // The finding as it stands at the end takes the place of the one raised when it counted (X3).
            if let i = openDivergenceFinding, let final = final?.finding, result.findings[i] != final { result.findings[i] = final }
            openDivergenceFinding = nil
            result.divergenceCount += 1
            if d.unexplained { result.unexplainedDivergenceCount += 1 }
            if d.uncertain { result.uncertainDivergenceCount += 1 }
            if d.startStateUnknown && !d.explained { result.unknownStartDivergenceCount += 1 }
            if result.divergences.count < options.maxDivergences { result.divergences.append(d) }
        case let .explainedAfterClosing(d, final):
            // X3: explained by a finding raised after it closed; its finding follows, as at a close. It leaves
            // the count it was closed into (unexplained, or begun while the start state was unknown).
            // X5: an uncertain one (lost records beside it, or an unknown start state) leaves the uncertain count.
            let stored = result.divergences.lastIndex(where: { $0.start == d.start })
            let wasUncertain = d.startStateUnknown || d.evidenceLost != nil || (stored.map { result.divergences[$0].evidenceLost != nil } ?? false)
            if d.startStateUnknown { result.unknownStartDivergenceCount -= 1 }
            if wasUncertain { result.uncertainDivergenceCount -= 1 } else { result.unexplainedDivergenceCount -= 1 }
            if let i = stored {
                result.divergences[i].explainedBy = d.explainedBy
                result.divergences[i].explainedBySeq = d.explainedBySeq
                if let f = result.divergences[i].finding { result.findings[f] = final.finding }
            }
        }
    }

    /// A call's outcome was decided after its verdict (a pending route call, V2; a switch whose send
    /// failed, L4): the verdict and the counts follow. The call's findings are not touched: the outcome is
    /// data on the verdict, phrased by the reports.
    mutating func decided(_ callSeq: Int, _ outcome: Outcome) {
        let call: PendingCall
        if let pending = pendingCalls.removeValue(forKey: callSeq) {
            call = pending
        } else if let i = keptVerdict(callSeq), let before = result.verdicts[i].outcome {
            // A call whose outcome was decided at the call (it took effect, so it was not counted).
            guard before.tookEffect else { return }
            call = PendingCall(key: result.verdicts[i].notTakingEffectKey, fate: CallFate(result.verdicts[i]), verdict: i)
            result.notTakingEffectCounts[call.key, default: 0] += 1
        } else {
            return
        }
        result.notTakingEffectCounts[call.key, default: 0] -= 1
        if result.notTakingEffectCounts[call.key] == 0 { result.notTakingEffectCounts[call.key] = nil }
        countFate(call.fate, -1)
        var fate = call.fate
        fate.outcome = outcome.kind
        fate.outcomeCause = outcome.cause
        countFate(fate, 1)
        var verdict: Verdict?
        if let i = call.verdict {
            result.verdicts[i].outcome = outcome
            verdict = result.verdicts[i]
        }
        if !outcome.tookEffect {
            let key = verdict?.notTakingEffectKey ?? OutcomeKey(kind: outcome.kind, cause: outcome.cause)
            result.notTakingEffectCounts[key, default: 0] += 1
        }
    }

    /// Gives the result to its caller, with what the replay keeps beside it until the end.
    func finished(_ edit: (inout ReplayResult) -> Void) -> ReplayResult {
        var r = result
        edit(&r)
        return r
    }

    /// Keeps what reports need of the record with this seq: moved in, not copied (a closure would capture a copy).
    mutating func index(_ seq: Int, _ entry: consuming IndexedRecord) {
        result.recordIndex.set(seq, entry)
    }

    /// The result's fields the replay sets as it reads the trace (the header, the records' span, the
    /// session's coverage, dropped stretches, the index, expectations), written here and nowhere else.
    mutating func update(_ edit: (inout ReplayResult) -> Void) {
        edit(&result)
    }
}
