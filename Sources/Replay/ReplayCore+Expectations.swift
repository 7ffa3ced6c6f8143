import QualityEngine
import TraceModel

extension ReplayCore {
    /// Checks one `expect.*` record against the engines' state now.
    func evaluate(_ e: Expectation, seq: Int) -> ExpectationResult {
        let (expected, actual): (String, String)
        let r = engines.first.state, q = engines.second.state
        switch e.kind {
        case .route(let want):
            (expected, actual) = (show(want?.rawValue), show(r.predictedRoute?.rawValue))
        case .target(let want):
            (expected, actual) = (want.rawValue, r.effectiveTarget.rawValue)
        case .override(let want):
            (expected, actual) = (show(want?.rawValue), show(r.override?.rawValue))
        case .engaged(let want):
            (expected, actual) = ("\(want)", "\(r.engaged)")
        case .audioModule(let want):
            (expected, actual) = ("\(want)", "\(r.audioModuleEnabled)")
        case .interrupted(let want):
            (expected, actual) = ("\(want)", "\(r.interrupted)")
        case .verdict(let ref, let verdict, let cause):
            expected = verdict.rawValue + (cause.map { "/" + $0.rawValue } ?? "")
            if let v = builder.verdict(for: ref) {
                // Without an expected cause, only the verdict is compared.
                actual = v.verdict.rawValue + (cause != nil ? (v.cause.map { "/" + $0.rawValue } ?? "") : "")
            } else {
                actual = builder.result.verdictsDropped > 0 ? ReplayWords.notKept(maxVerdicts: options.maxVerdicts)
                    : ReplayWords.noVerdict(seq: ref)
            }
        case .quality(let want):
            expected = want.map { qualityText($0.overall, $0.mos) } ?? "null"
            if let latest = q.latest {
                actual = qualityText(latest.overall, want?.mos == nil ? nil : latest.mos)
            } else {
                actual = "null"
            }
        case .qualityChanges(let want):
            expected = changesText(want.map { ($0.previous, $0.overall) })
            actual = engines.second.levelChangeCount > q.changes.count
                ? ReplayWords.changesNotKept(max: QualityEngine.maxKeptChanges)
                : changesText(q.changes.map { ($0.previous, $0.overall) })
        case .speakers(let want):
            expected = speakersText(want)
            actual = speakersText(q.speakers.map(\.key))
        case .finding(let code, let count):
            let n = builder.findingCount(code)
            if let count {
                (expected, actual) = ("\(count) × \(code)", "\(n) × \(code)")
            } else {
                expected = ReplayWords.atLeastOne(code)
                actual = n > 0 ? expected : "none"
            }
        case .noFinding(let code):
            let n = builder.findingCount(code)
            (expected, actual) = ("no \(code)", n == 0 ? "no \(code)" : "\(n) × \(code)")
        case .divergences(let count):
            (expected, actual) = ("\(count)", "\(divergences.count)")
        case let .outcome(ref, outcome, cause, by):
            (expected, actual) = outcomeTexts(ref: ref, outcome: outcome, cause: cause, by: by)
        case let .predictedBy(ref, rule, seq, appliedBy, explanation):
            (expected, actual) = predictedByTexts(ref: ref, rule: rule, seq: seq, appliedBy: appliedBy, explanation: explanation)
        case .damage(let lost):
            // The damage itself is judged by `check` against what the reader lost (X5); here it is recorded.
            // Recorded into the result by the caller (`declared(_:)`): evaluating changes nothing.
            let text = Self.rangesText(lost)
            (expected, actual) = (text, text)
        }
        return ExpectationResult(seq: seq, type: e.type, rule: e.pinnedRule, passed: expected == actual, expected: expected,
                                 actual: actual)
    }

    /// V2: the outcome of a route call so far; the cause and the deciding record only when asserted.
    private func outcomeTexts(ref: Int, outcome: OutcomeKind, cause: VerdictCause?,
                              by: Expectation.RecordRef?) -> (String, String) {
        let expected = outcome.rawValue + (cause.map { "/" + $0.rawValue } ?? "") + (by.map { " by \($0)" } ?? "")
        guard let v = builder.verdict(for: ref) else {
            return (expected, builder.result.verdictsDropped > 0 ? ReplayWords.notKept(maxVerdicts: options.maxVerdicts)
                        : ReplayWords.noOutcome(seq: ref, replayed: true))
        }
        guard let o = v.outcome else { return (expected, ReplayWords.noOutcome(seq: ref, replayed: false)) }
        let actual = o.kind.rawValue + (cause != nil ? (o.cause.map { "/" + $0.rawValue } ?? "") : "")
            + (by != nil ? " by \(Expectation.RecordRef(o.seq))" : "")
        return (expected, actual)
    }

    /// X4: why the prediction of a divergence (by index, in start order) was what it was; X3: whether a
    /// finding explains it so far, and which.
    private func predictedByTexts(ref: Int, rule: RuleID, seq: Expectation.RecordRef?, appliedBy: Expectation.RecordRef?,
                                  explanation: Expectation.Explained?) -> (String, String) {
        func text(_ rule: RuleID, _ s: Expectation.RecordRef?, _ a: Expectation.RecordRef?, _ explained: Bool?, _ by: FindingCode??,
                  _ status: DivergenceStatus?) -> String {
            var t = rule.rawValue + (s.map { " record \($0)" } ?? "") + (a.map { " applied by \($0)" } ?? "")
            if let explained { t += explained ? ", explained" : ", unexplained" }
            if case .some(let code) = by { t += " by " + (code?.rawValue ?? "nothing") }
            if let status { t += ", status " + status.rawValue }
            return t
        }
        let expected = text(rule, seq, appliedBy, explanation?.explained, explanation?.by ?? .none, explanation?.status)
        var counted = builder.result.divergences
        if divergences.openCounted, let open = divergences.open { counted.append(open) }
        guard ref < counted.count else { return (expected, "no divergence \(ref) (\(counted.count) so far)") }
        var d = counted[ref]
        guard let source = d.predictedBy else { return (expected, ReplayWords.noPredictionSource) }
        let by: FindingCode?? = explanation?.by.map { _ in d.explainedBy } ?? .none
        // X5: so far, a divergence open beside lost records (up to now, for the open one) is uncertain.
        if !d.explained, d.evidenceLost == nil { d.evidenceLost = lostCovering(d.start, max(d.end, now)) }
        let status: DivergenceStatus = d.explained ? .explained : d.uncertain ? .uncertain : .unexplained
        return (expected, text(source.rule, seq.map { _ in .init(source.seq) }, appliedBy.map { _ in .init(source.appliedBy) },
                               explanation?.explained.map { _ in d.explained }, by, explanation?.status.map { _ in status }))
    }

    private func show(_ s: String?) -> String { s ?? "null" }

    /// Seq ranges as `[[16, 23], …]`.
    static func rangesText(_ ranges: [ClosedRange<Int>]) -> String {
        "[" + ranges.map { "[\($0.lowerBound), \($0.upperBound)]" }.joined(separator: ", ") + "]"
    }

    private func qualityText(_ overall: QualityLevel, _ mos: Double?) -> String {
        guard let mos else { return overall.rawValue }
        return overall.rawValue + " mos " + formatMos(mos)
    }

    private func changesText(_ list: [(QualityLevel, QualityLevel)]) -> String {
        "[" + list.map { "\($0.0.rawValue)→\($0.1.rawValue)" }.joined(separator: ", ") + "]"
    }

    private func speakersText(_ list: [SpeakerKey]) -> String {
        "[" + list.map { "\($0.uid)/\($0.trackId)" }.joined(separator: ", ") + "]"
    }
}

/// Mos with two decimals, compared as text so that 4.1 and 4.10 agree.
func formatMos(_ v: Double) -> String {
    // Outside Int64 (a hostile trace's 1e300) the plain description cannot trap.
    guard v.isFinite, abs(v) < 1e15 else { return "\(v)" }
    let n = Int64((abs(v) * 100).rounded())
    let frac = n % 100
    return (v < 0 && n != 0 ? "-" : "") + "\(n / 100)." + (frac < 10 ? "0" : "") + "\(frac)"
}
