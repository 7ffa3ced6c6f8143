import TraceModel

/// What became of a route call (contract V2), decided at the call or later.
@usableFromInline package struct Outcome: Equatable, Sendable {
    /// The outcome.
    package var kind: OutcomeKind
    /// Why, for `ineffective` (and `rejected`); `pending`, `superseded` and `dropped` carry none.
    package var cause: VerdictCause?
    /// When it was decided (the call's own time for an outcome decided at the call).
    package var t: Int64
    /// The record that decided it: the call itself, the superseding call, the leave or exit, the
    /// engagement or recovery record; nil when a timer decided it (I3's retry) or while `pending`.
    package var seq: Int?

    /// Creates an outcome.
    package init(kind: OutcomeKind, cause: VerdictCause? = nil, t: Int64, seq: Int?) {
        self.kind = kind
        self.cause = cause
        self.t = t
        self.seq = seq
    }

    /// Whether the call took effect in the end (`applied` or `noop`); the others are what reports list
    /// as "did not take effect".
    package var tookEffect: Bool { kind == .applied || kind == .noop }
}
