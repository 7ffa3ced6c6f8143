import Contract
import TraceModel

/// What can explain a divergence (X3), as the trace has told it so far: the findings that account for one
/// and the records they depend on.
struct ExplanationContext {
    /// The layer's words, from the header.
    var words = LayerWords(.srtc)
    /// The header's seq, once `device.simulator` was raised (R10).
    var simulatorSeq: Int?
    /// The latest call-session activation (R11: its mode's implied options count as its own).
    var lastCallSession: (seq: Int, activation: SessionActivation)?
    /// When the latest interruption began, and the latest interruption finding since then.
    var lastInterruptionBegan: Int64?
    var interruptionFinding: (code: FindingCode, seq: Int)?
    /// The record of the latest `session.changedByOtherComponent` (R12).
    var otherComponentChangeSeq: Int?

    /// Whether the interval that starts at record `seq` starts with another component's change (R12).
    func startedByOtherComponent(_ seq: Int?) -> Int? {
        guard let seq, otherComponentChangeSeq == seq else { return nil }
        return seq
    }
    /// The latest `applied` route call.
    var lastApplied: (seq: Int, t: Int64)?
    /// The effective target is a speaker default with no override.
    var speakerByDefault = false

    /// Notes a record's content.
    mutating func note(_ r: Record) {
        if case .header(let h) = r.body { words = LayerWords(h.layer) }
        if case .sessionActivated(let a) = r.body, a.isCallSession { lastCallSession = (r.seq, a) }
        if case .interruptionBegan = r.body {
            lastInterruptionBegan = r.t
            interruptionFinding = nil
        }
    }

    /// Notes a finding that may explain a divergence.
    mutating func note(_ f: Finding) {
        switch f.code {
        case .deviceSimulator: simulatorSeq = f.seqs.first ?? 0
        case .sessionChangedByOtherComponent: otherComponentChangeSeq = f.seqs.first
        case .interruptionNotRecovered, .interruptionPrematureReactivation, .interruptionRecoveredWithoutActivation:
            interruptionFinding = (f.code, f.seqs.first ?? 0)
        default: break
        }
    }

    /// X3: the finding that accounts for the divergence, if any, at the moment it counts; `startedBy` is the
    /// `session.changedByOtherComponent` record the interval started with, if it did (R12).
    func explain(_ d: inout Divergence, startedBy change: Int?) {
        guard let (code, seq) = explanation(d, startedBy: change) else { return }
        d.explainedBy = code
        d.explainedBySeq = seq
    }

    private func explanation(_ d: Divergence, startedBy change: Int?) -> (FindingCode, Int)? {
        // R12: another component changed the session at the very record the divergence started with.
        if let change { return (.sessionChangedByOtherComponent, change) }
        if let seq = simulatorSeq { return (.deviceSimulator, seq) }
        if d.predicted == .bluetooth, let s = lastCallSession, !s.activation.has("allowBluetooth") {
            return (.sessionMissingAllowBluetooth, s.seq)
        }
        if d.predicted == .speaker, d.actual == .receiver, speakerByDefault, let s = lastCallSession,
           !s.activation.has("defaultToSpeaker") {
            return (.sessionMissingDefaultToSpeaker, s.seq)
        }
        if let began = lastInterruptionBegan, d.start >= began, let f = interruptionFinding {
            return (f.code, f.seq)
        }
        return nil
    }
}
