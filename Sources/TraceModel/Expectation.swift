/// An `expect.*` record: an assertion a golden trace carries about the engines' state.
public struct Expectation: Equatable, Sendable {
    /// What is asserted.
    public var kind: Kind
    /// Checked after the whole trace (`"at":"end"`) rather than at the record's position.
    public var atEnd: Bool
    /// The contract rule this expectation pins, e.g. `R5` (for `expect.predictedBy` the record's `rule` is
    /// the asserted branch of R8, held in the kind; this stays nil).
    public var rule: RuleID?

    /// Creates an expectation.
    public init(_ kind: Kind, atEnd: Bool = false, rule: RuleID? = nil) {
        self.kind = kind
        self.atEnd = atEnd
        self.rule = rule
    }

    /// The rule the expectation pins: `rule`, or X4 for `expect.predictedBy`, whose `rule` field is the branch.
    public var pinnedRule: RuleID? {
        if case .predictedBy = kind { return .X4 }
        return rule
    }

    /// The record type, e.g. `expect.route`.
    public var type: String { "expect." + kind.name }

    /// What an expectation asserts.
    public enum Kind: Equatable, Sendable {
        /// The predicted route (`nil`: no prediction).
        case route(Route?)
        /// Effective target = override ?? default.
        case target(RouteTarget)
        /// The temporary override.
        case override(RouteTarget?)
        /// The call audio path is set up.
        case engaged(Bool)
        /// The audio module switch.
        case audioModule(Bool)
        /// Interrupted and not yet recovered.
        case interrupted(Bool)
        /// The verdict on the `api.*` record with seq `ref`.
        case verdict(ref: Int, verdict: VerdictKind, cause: VerdictCause?)
        /// What `getConnectionQuality()` returns now (`nil`: null).
        case quality(QualityValue?)
        /// Every derived level change so far, in order.
        case qualityChanges([LevelChangePair])
        /// The current active-speaker snapshot, in order.
        case speakers([SpeakerKey])
        /// Diagnostics so far include this code (exactly `count` times when given).
        case finding(code: FindingCode, count: Int?)
        /// Diagnostics so far do not include this code.
        case noFinding(code: FindingCode)
        /// Route divergences counted so far.
        case divergences(count: Int)
        /// What became of the route call (or, since v3, the `api.switchLayer`) with seq `ref` so far (V2, L4);
        /// `by` nil leaves the deciding record unchecked.
        case outcome(ref: Int, outcome: OutcomeKind, cause: VerdictCause?, by: RecordRef?)
        /// Why the prediction of divergence `ref` (0-based, in start order) was what it was (X4): the branch of R8
        /// and the record behind it; and (since v3) whether a finding explains it so far and which (X3). Each
        /// nil leaves that part unchecked.
        case predictedBy(ref: Int, rule: RuleID, seq: RecordRef?, appliedBy: RecordRef?, explanation: Explained?)
        /// The trace is damaged on purpose (since v4): the seqs not read, as inclusive ranges. `check` judges
        /// the other expectations when the damage is exactly this one.
        case damage(lost: [ClosedRange<Int>])

        /// The part of the record type after `expect.`.
        public var name: String {
            switch self {
            case .route: "route"
            case .target: "target"
            case .override: "override"
            case .engaged: "engaged"
            case .audioModule: "audioModule"
            case .interrupted: "interrupted"
            case .verdict: "verdict"
            case .quality: "quality"
            case .qualityChanges: "qualityChanges"
            case .speakers: "speakers"
            case .finding: "finding"
            case .noFinding: "noFinding"
            case .divergences: "divergences"
            case .outcome: "outcome"
            case .predictedBy: "predictedBy"
            case .damage: "damage"
            }
        }
    }

    /// Whether a divergence is explained so far and by which finding code (`expect.predictedBy`'s
    /// `explained` and `explainedBy`); a nil part is not asserted.
    public struct Explained: Equatable, Sendable {
        /// `explained`.
        public var explained: Bool?
        /// `explainedBy`: `.some(nil)` asserts that no finding explains it.
        public var by: FindingCode??
        /// `status` (since v4): explained, unexplained or uncertain (X5).
        public var status: DivergenceStatus?
        /// Creates the assertion.
        public init(explained: Bool?, by: FindingCode??, status: DivergenceStatus? = nil) {
            self.explained = explained
            self.by = by
            self.status = status
        }
    }

    /// A record an expectation names, or none (written as `null`).
    public enum RecordRef: Equatable, Sendable, CustomStringConvertible {
        /// No record (a timer decided it, or the branch has no record).
        case none
        /// The record with this seq.
        case seq(Int)

        /// Creates a reference from an optional seq.
        public init(_ seq: Int?) { self = seq.map { .seq($0) } ?? .none }

        /// The seq, or nil for none.
        public var seq: Int? {
            if case .seq(let s) = self { return s }
            return nil
        }

        /// `seq N` or `none`.
        public var description: String { seq.map { "seq \($0)" } ?? "none" }
    }

    /// The value `getConnectionQuality()` returns when it is not null.
    public struct QualityValue: Equatable, Sendable {
        /// Worse of pub and sub.
        public var overall: QualityLevel
        /// Smaller of the two mos, when asserted.
        public var mos: Double?
        /// Creates a value.
        public init(overall: QualityLevel, mos: Double? = nil) {
            self.overall = overall
            self.mos = mos
        }
    }

    /// One level change: `previous` → `overall`.
    public struct LevelChangePair: Equatable, Sendable {
        /// The baseline before the change.
        public var previous: QualityLevel
        /// The new level.
        public var overall: QualityLevel
        /// Creates a pair.
        public init(previous: QualityLevel, overall: QualityLevel) {
            self.previous = previous
            self.overall = overall
        }
    }
}

/// What a divergence is, so far (X3, X5): explained by a finding, unexplained (the bug to escalate), or
/// uncertain (records were lost while it was open, or it began from an unknown start state).
public enum DivergenceStatus: String, TraceVocabulary {
    case explained, unexplained, uncertain
}
