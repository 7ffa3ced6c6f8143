/// An `expect.*` record: an assertion a golden trace carries about the engines' state.
public struct Expectation: Equatable, Sendable {
    /// What is asserted.
    public var kind: Kind
    /// Checked after the whole trace (`"at":"end"`) rather than at the record's position.
    public var atEnd: Bool
    /// The contract rule id this expectation pins, e.g. `R5`.
    public var rule: String?

    /// Creates an expectation.
    public init(_ kind: Kind, atEnd: Bool = false, rule: String? = nil) {
        self.kind = kind
        self.atEnd = atEnd
        self.rule = rule
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
        case finding(code: String, count: Int?)
        /// Diagnostics so far do not include this code.
        case noFinding(code: String)
        /// Route divergences counted so far.
        case divergences(count: Int)

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
            }
        }
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
