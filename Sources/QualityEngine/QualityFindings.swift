// The quality engine's findings: codes, rules, severities and the records they cite, phrased in
// `FindingWords+Quality.swift` and `FindingWords+Trace.swift` in the trace's layer's words.
import Contract
import TraceModel

/// Builds the engine's findings.
struct QualityFindings {
    let words: LayerWords
    let options: QualityEngine.Options

    let layer: Layer

    init(layer: Layer, options: QualityEngine.Options) {
        self.words = LayerWords(layer)
        self.options = options
        self.layer = layer
    }

    /// The advice of every `speakers.missedSnapshot` of a layer, phrased once: a stressed session keeps thousands.
    static let srtcMissedSnapshotAdvice = missedSnapshotAdvice(LayerWords(.srtc))
    static let smeetingMissedSnapshotAdvice = missedSnapshotAdvice(LayerWords(.smeeting))

    private static func missedSnapshotAdvice(_ words: LayerWords) -> String {
        FindingWords.missedSnapshotAdvice(participant: words.participant, product: words.product)
    }

    func spurious(previous: QualityLevel, overall: QualityLevel, seq: Int, t: Int64,
                  lastDerived: QualityEngine.LevelChange?) -> Finding {
        let window = options.matchWindowMs, product = words.product
        let last = lastDerived.map { (previous: $0.previous, overall: $0.overall, seq: $0.seq, t: $0.t) }
        return Finding(code: .qualitySpuriousChange, severity: .warning, rule: .Q2,
                       seqs: lastDerived.map { [seq, $0.seq] } ?? [seq], t: t) { part in
            FindingWords.spuriousChange(part, previous: previous, overall: overall, seq: seq, window: window, last: last, product: product)
        }
    }

    func missed(_ change: QualityEngine.LevelChange, t: Int64) -> Finding {
        let window = options.matchWindowMs, product = words.product
        let derived = (previous: change.previous, overall: change.overall, seq: change.seq, t: change.t)
        return Finding(code: .qualityMissedChange, severity: .warning, rule: .Q2, seqs: [change.seq], t: t) { part in
            FindingWords.missedChange(part, derived, window: window, product: product)
        }
    }

    func flapping(_ marks: [QualityEngine.ChangeMark]) -> Finding {
        let first = marks.first!, last = marks.last!
        return Finding(
            code: .qualityFlapping, severity: .warning, rule: .Q2,
            seqs: [last.seq] + marks.dropLast().map(\.seq), t: last.t,
            FindingWords.flapping(levels: marks.map(\.overall), first: (first.seq, first.t), last: (last.seq, last.t),
                                  changes: options.flappingChanges, window: options.flappingWindowMs, words))
    }

    func speakersMismatch(observed: [Speaker], derived: [Speaker], seq: Int, derivedSeq: Int?,
                          t: Int64) -> Finding {
        Finding(
            code: .speakersMismatch, severity: .warning, rule: .S2, seqs: [seq] + (derivedSeq.map { [$0] } ?? []),
            t: t, FindingWords.speakersMismatch(observed: observed, derived: derived, seq: seq, derivedSeq: derivedSeq, words))
    }

    func targetNotInCandidates(key: QualityEngine.TrackKey, target: String, seq: Int, t: Int64,
                               subscription: QualityEngine.Subscription) -> Finding {
        Finding(
            code: .layerTargetNotInCandidates, severity: .warning, rule: .L2, seqs: [seq, subscription.seq], t: t,
            FindingWords.targetNotInCandidates(call: FindingWords.layerCall(pubUid: key.pubUid, trackId: key.trackId, target: target), seq: seq, layers: subscription.layers,
                                               subscribeSeq: subscription.seq, words),
            call: seq)
    }

    func switchNotConfirmed(_ pending: QualityEngine.PendingSwitch, t: Int64) -> Finding {
        Finding(
            code: .layerSwitchNotConfirmed, severity: .warning, rule: .L3, seqs: [pending.seq], t: t,
            FindingWords.switchNotConfirmed(call: FindingWords.layerCall(pubUid: pending.key.pubUid, trackId: pending.key.trackId, target: pending.target), seq: pending.seq, target: pending.target,
                                            timeout: options.layerConfirmTimeoutMs, words))
    }

    /// L4: an accepted switch whose send on the signalling channel failed.
    func switchNotSent(callSeq: Int, callT: Int64, pending: QualityEngine.PendingSwitch?, errorSeq: Int, error: String,
                       t: Int64) -> Finding {
        let call = pending.map { FindingWords.layerCall(pubUid: $0.key.pubUid, trackId: $0.key.trackId, target: $0.target) } ?? "switchLayer"
        return Finding(
            code: .layerSwitchNotSent, severity: .warning, rule: .L4, seqs: [errorSeq, callSeq], t: t,
            FindingWords.switchNotSent(call: call, callSeq: callSeq, after: t - callT, error: error, errorSeq: errorSeq, words),
            call: callSeq)
    }

    /// S3: a derived active-speaker snapshot the SDK did not emit.
    func missedSnapshot(_ s: QualityEngine.DerivedSnapshot, t: Int64) -> Finding {
        let advice = switch layer {
        case .srtc: Self.srtcMissedSnapshotAdvice
        case .smeeting: Self.smeetingMissedSnapshotAdvice
        }
        let window = options.matchWindowMs
        let (seq, at, count) = (s.seq, s.t, s.count)
        return Finding(code: .speakersMissedSnapshot, severity: .warning, rule: .S3, seqs: [s.seq], t: t) { part in
            switch part {
            case .message: FindingWords.missedSnapshotMessage(seq: seq, t: at, count: count, window: window)
            case .advice: advice
            }
        }
    }

    /// T2: a value outside its documented range.
    func valueOutOfRange(field: String, value: Double, range: ClosedRange<Double>, seq: Int, t: Int64) -> Finding {
        Finding(code: .traceValueOutOfRange, severity: .warning, rule: .T2, seqs: [seq], t: t,
                FindingWords.valueOutOfRange(field: field, value: value, range: range, seq: seq, words))
    }

    /// An engine limit was reached (`speakers` or `subscriptions`); the addition was ignored.
    func limitExceeded(_ what: String, limit: Int, seq: Int, t: Int64) -> Finding {
        Finding(code: .traceLimitExceeded, severity: .warning, rule: nil, seqs: [seq], t: t,
                FindingWords.qualityLimitExceeded(what, limit: limit, seq: seq, words))
    }
}
