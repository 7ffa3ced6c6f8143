import Contract
import RouteEngine
import TraceModel

/// What the route engine's state says can explain a divergence at a moment (X3 as restated in v3).
struct ExplanationFacts: Equatable {
    /// The call session that is up (R19), with what it raised.
    var callSession: SessionFacts?
    /// The effective target is a speaker default with no override.
    var speakerByDefault = false
    /// An interruption finding that explains divergences from the recovery it names on.
    var recovery: RouteEngine.RecoveryExplanation?
    /// `session.callPathNotUp` explains divergences now (its window's record, and from when).
    var callPath: RouteEngine.CallPathExplanation?

    init() {}

    init(callSession: RouteEngine.CallSession?, speakerByDefault: Bool, recovery: RouteEngine.RecoveryExplanation?,
         callPath: RouteEngine.CallPathExplanation?) {
        self.callSession = callSession.map {
            SessionFacts(seq: $0.seq, missingAllowBluetooth: $0.missingAllowBluetooth, missingDefaultToSpeaker: $0.missingDefaultToSpeaker)
        }
        self.speakerByDefault = speakerByDefault
        self.recovery = recovery
        self.callPath = callPath
    }

    /// What the explanation rows read of the call session that is up: its record and what it raised. Not
    /// the session itself, whose mode is a `String`: a prediction is copied at every record that notes it,
    /// and without a reference in it a copy is a plain copy of bytes.
    struct SessionFacts: Equatable {
        var seq: Int
        var missingAllowBluetooth: Bool
        var missingDefaultToSpeaker: Bool
    }

    /// Whether a row of a finding raised at the end of its window holds here and did not in `before`: the
    /// divergences that closed before it was raised may fall under it (X3).
    func addsALaterRow(to before: ExplanationFacts) -> Bool {
        (recovery != nil && recovery != before.recovery) || (callPath != nil && callPath != before.callPath)
    }
}

/// What can explain a divergence (X3), as the trace has told it so far: the rows of the explanation table,
/// checked at every moment a divergence is open; the first row that holds explains it.
struct ExplanationContext {
    /// The layer's words, from the header.
    var words = LayerWords(.srtc)
    /// The latest `session.changedByOtherComponent`: its reading and when (R12).
    var otherComponentChange: (seq: Int, t: Int64)?
    /// The R12 finding raised for the record being replayed, before the tracker reads it.
    private var raisedChange: (seq: Int, t: Int64)?
    /// The latest `applied` route call.
    var lastApplied: (seq: Int, t: Int64)?
    /// The engine's facts at the latest moment.
    var facts = ExplanationFacts()

    /// Notes a header's layer: the layer whose words findings use.
    mutating func note(_ layer: Layer) {
        words = LayerWords(layer)
    }

    /// Notes a finding (its code, the record it names first and its time) that may explain a divergence.
    mutating func note(_ code: FindingCode, seq: Int?, t: Int64) {
        if code == .sessionChangedByOtherComponent, let seq { raisedChange = (seq, t) }
    }

    /// The R12 change raised at reading `r`, if one was.
    mutating func pendingChange(at seq: Int) -> (seq: Int, t: Int64)? {
        guard let change = raisedChange, change.seq == seq else { return nil }
        raisedChange = nil
        return change
    }

    /// X3: the first row of the table that holds at moment `t` explains the interval (it keeps the first
    /// explanation it gets).
    func explain(_ d: inout Divergence, at t: Int64, starting: Bool) {
        guard d.explainedBy == nil, let (code, seq) = explanation(d, at: t, starting: starting) else { return }
        d.explainedBy = code
        d.explainedBySeq = seq
    }

    private func explanation(_ d: Divergence, at t: Int64, starting: Bool) -> (FindingCode, Int)? {
        // R12: a divergence that starts in the ms of the reading that raised it.
        if let change = otherComponentChange, change.t == d.start { return (.sessionChangedByOtherComponent, change.seq) }
        if let s = facts.callSession {
            if s.missingAllowBluetooth, d.predicted == .bluetooth, d.actual == .receiver || d.actual == .speaker {
                return (.sessionMissingAllowBluetooth, s.seq)
            }
            if s.missingDefaultToSpeaker, d.predicted == .speaker, d.predictedBy?.rule == .R2, facts.speakerByDefault,
               d.actual == .receiver {
                return (.sessionMissingDefaultToSpeaker, s.seq)
            }
        }
        if let r = facts.recovery, let from = r.from, t >= from { return (r.code, r.seq) }
        if let window = facts.callPath, d.predicted == .receiver, d.actual == .speaker { return (.sessionCallPathNotUp, window.seq) }
        return nil
    }

    /// X3 for a divergence that closed before a finding raised at the end of its window: the rows of those
    /// findings cover the moments from the recovery they name (`interruption.*`) or from the first
    /// activation in another category in the window (`session.callPathNotUp`) until now, where nothing has
    /// ended them yet. The divergence falls under a row when it was open at one of those moments (it is
    /// open from its start up to, not including, its end).
    func explanationAfterClosing(_ d: Divergence) -> (FindingCode, Int)? {
        if let r = facts.recovery, let from = r.from, d.end > from { return (r.code, r.seq) }
        if let window = facts.callPath, d.predicted == .receiver, d.actual == .speaker, d.end > window.from {
            return (.sessionCallPathNotUp, window.seq)
        }
        return nil
    }
}
