import TraceModel

/// The verdict on one app call (contract, "Verdicts on calls").
@usableFromInline package struct Verdict: Equatable, Sendable {
    /// The call's seq.
    package var seq: Int
    /// The call's time.
    package var t: Int64
    /// The call's record type, e.g. `api.setRoute`.
    package var call: RecordKind
    /// The literal API the app used, when recorded (e.g. `setSpeakerOutputEnabled(true)`).
    package var api: String?
    /// The verdict.
    package var verdict: VerdictKind
    /// Why, for verdicts other than `applied` and `noop`.
    package var cause: VerdictCause?
    /// The record that created the cause (e.g. the `os.deviceConnected`), when there is one.
    package var causeSeq: Int?
    /// The rule that decided it (`V1`, `L1`, `L2`).
    package var rule: RuleID
    /// What became of the call (V2), as far as it is decided: set by the replay (nil for calls the
    /// contract gives no outcome, like `api.switchLayer`).
    package var outcome: Outcome?
    /// The index of the finding that explains the verdict among the replay's kept findings, linked by
    /// the replay when both are made (nil: none, or not kept).
    package var finding: Int?

    /// Creates a verdict.
    package init(seq: Int, t: Int64, call: RecordKind, api: String? = nil, verdict: VerdictKind, cause: VerdictCause? = nil,
                causeSeq: Int? = nil, rule: RuleID) {
        self.seq = seq
        self.t = t
        self.call = call
        self.api = api
        self.verdict = verdict
        self.cause = cause
        self.causeSeq = causeSeq
        self.rule = rule
    }
}
