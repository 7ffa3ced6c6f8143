import QualityEngine
import TraceFormat

extension Replayer {
    /// Checks one `expect.*` record against the engines' state now.
    func evaluate(_ e: Expectation, seq: Int) -> ExpectationResult {
        let (expected, actual): (String, String)
        let r = route.state, q = quality.state
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
            if let v = self.verdict(for: ref) {
                // Without an expected cause, only the verdict is compared.
                actual = v.verdict.rawValue + (cause != nil ? (v.cause.map { "/" + $0.rawValue } ?? "") : "")
            } else {
                actual = result.verdictsDropped > 0 ? "not kept (more than \(options.maxVerdicts) verdicts)"
                    : "no verdict (seq \(ref) is not a replayed route or layer call)"
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
            actual = quality.levelChangeCount > q.changes.count
                ? "more than \(QualityEngine.maxKeptChanges) changes (not kept)"
                : changesText(q.changes.map { ($0.previous, $0.overall) })
        case .speakers(let want):
            expected = speakersText(want)
            actual = speakersText(q.speakers.map(\.key))
        case .finding(let code, let count):
            let n = FindingCode(rawValue: code).flatMap { result.findingCounts[$0] } ?? 0
            if let count {
                (expected, actual) = ("\(count) × \(code)", "\(n) × \(code)")
            } else {
                expected = "at least one \(code)"
                actual = n > 0 ? expected : "none"
            }
        case .noFinding(let code):
            let n = FindingCode(rawValue: code).flatMap { result.findingCounts[$0] } ?? 0
            (expected, actual) = ("no \(code)", n == 0 ? "no \(code)" : "\(n) × \(code)")
        case .divergences(let count):
            (expected, actual) = ("\(count)", "\(divergences.count)")
        }
        return ExpectationResult(seq: seq, type: e.type, rule: e.rule, passed: expected == actual, expected: expected, actual: actual)
    }

    private func show(_ s: String?) -> String { s ?? "null" }

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
