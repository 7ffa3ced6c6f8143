/// How serious a finding is.
import TraceModel
public enum Severity: String, Sendable, Comparable, CaseIterable {
    case info, warning, error

    private var rank: Int { self == .info ? 0 : self == .warning ? 1 : 2 }
    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
}

/// A diagnostic: a stable code, the rule it comes from, the records involved, and advice in the layer's words.
/// A value that does not change once raised: a finding revised later (X3's explanation of a divergence) is a
/// new finding that replaces the kept one in the result.
public struct Finding: Equatable, Sendable {
    /// Stable code, e.g. `route.ineffective`.
    public let code: FindingCode
    /// How serious it is.
    public let severity: Severity
    /// The contract rule, e.g. `R4`, when one applies.
    public let rule: RuleID?
    /// The seqs of the records involved, the deciding one first.
    public let seqs: [Int]
    /// When it was raised (ms since the trace started).
    public let t: Int64
    /// What happened.
    public var message: String { text.message }
    /// What the app (or the engineer) should do.
    public var advice: String { text.advice }
    /// The call whose verdict this finding explains (a route call's `route.ineffective`, a layer call's
    /// finding), set by the engine that decides the verdict: the replay links the two by it.
    public let call: Int?
    /// The message and advice, phrased or to be phrased when read.
    private let text: FindingText

    /// Creates a finding.
    public init(code: FindingCode, severity: Severity, rule: RuleID?, seqs: [Int], t: Int64, message: String, advice: String,
                call: Int? = nil) {
        self.code = code
        self.severity = severity
        self.rule = rule
        self.seqs = seqs
        self.t = t
        self.text = .phrased(message: message, advice: advice)
        self.call = call
    }

    /// Creates a finding whose message and advice are phrased only when read, each on its own: for the
    /// findings a trace can raise at a high rate, most of which a result only counts (past its cap), so that
    /// phrasing is report work, done for the findings a report shows. `phrase` must give the same text every
    /// time.
    public init(code: FindingCode, severity: Severity, rule: RuleID?, seqs: [Int], t: Int64, call: Int? = nil,
                phrase: @escaping @Sendable (FindingProse) -> String) {
        self.code = code
        self.severity = severity
        self.rule = rule
        self.seqs = seqs
        self.t = t
        self.text = .later(phrase)
        self.call = call
    }

    private init(code: FindingCode, severity: Severity, rule: RuleID?, seqs: [Int], t: Int64, call: Int?, text: FindingText) {
        self.code = code
        self.severity = severity
        self.rule = rule
        self.seqs = seqs
        self.t = t
        self.call = call
        self.text = text
    }

    /// The same finding, raised at `t` instead (a check held until its kind is seen is raised then).
    public func raised(at t: Int64) -> Finding {
        Finding(code: code, severity: severity, rule: rule, seqs: seqs, t: t, call: call, text: text)
    }

    /// The same finding with other words (tests compare findings without their prose).
    public func phrased(message: String, advice: String) -> Finding {
        Finding(code: code, severity: severity, rule: rule, seqs: seqs, t: t, call: call, text: .phrased(message: message, advice: advice))
    }

    public static func == (a: Finding, b: Finding) -> Bool {
        a.code == b.code && a.severity == b.severity && a.rule == b.rule && a.seqs == b.seqs && a.t == b.t
            && a.call == b.call && a.message == b.message && a.advice == b.advice
    }
}

/// The two parts of a finding's prose.
public enum FindingProse: Sendable {
    case message, advice
}

/// A finding's words: phrased, or a function that phrases each part when it is read.
private enum FindingText: Sendable {
    case phrased(message: String, advice: String)
    case later(@Sendable (FindingProse) -> String)

    var message: String {
        switch self {
        case .phrased(let message, _): message
        case .later(let phrase): phrase(.message)
        }
    }

    var advice: String {
        switch self {
        case .phrased(_, let advice): advice
        case .later(let phrase): phrase(.advice)
        }
    }
}

/// The verdict on one app call (contract, "Verdicts on calls").
public struct Verdict: Equatable, Sendable {
    /// The call's seq.
    public var seq: Int
    /// The call's time.
    public var t: Int64
    /// The call's record type, e.g. `api.setRoute`.
    public var call: RecordKind
    /// The literal API the app used, when recorded (e.g. `setSpeakerOutputEnabled(true)`).
    public var api: String?
    /// The verdict.
    public var verdict: VerdictKind
    /// Why, for verdicts other than `applied` and `noop`.
    public var cause: VerdictCause?
    /// The record that created the cause (e.g. the `os.deviceConnected`), when there is one.
    public var causeSeq: Int?
    /// The rule that decided it (`V1`, `L1`, `L2`).
    public var rule: RuleID
    /// What became of the call (V2), as far as it is decided: set by the replay (nil for calls the
    /// contract gives no outcome, like `api.switchLayer`).
    public var outcome: Outcome?
    /// The index of the finding that explains the verdict among the replay's kept findings, linked by
    /// the replay when both are made (nil: none, or not kept).
    public var finding: Int?

    /// Creates a verdict.
    public init(seq: Int, t: Int64, call: RecordKind, api: String? = nil, verdict: VerdictKind, cause: VerdictCause? = nil,
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

/// What became of a route call (contract V2), decided at the call or later.
public struct Outcome: Equatable, Sendable {
    /// The outcome.
    public var kind: OutcomeKind
    /// Why, for `ineffective` (and `rejected`); `pending`, `superseded` and `dropped` carry none.
    public var cause: VerdictCause?
    /// When it was decided (the call's own time for an outcome decided at the call).
    public var t: Int64
    /// The record that decided it: the call itself, the superseding call, the leave or exit, the
    /// engagement or recovery record; nil when a timer decided it (I3's retry) or while `pending`.
    public var seq: Int?

    /// Creates an outcome.
    public init(kind: OutcomeKind, cause: VerdictCause? = nil, t: Int64, seq: Int?) {
        self.kind = kind
        self.cause = cause
        self.t = t
        self.seq = seq
    }

    /// Whether the call took effect in the end (`applied` or `noop`); the others are what reports list
    /// as "did not take effect".
    public var tookEffect: Bool { kind == .applied || kind == .noop }
}

/// Why the predicted route of a divergence was what it was (contract X4): the branch of R8 as a rule
/// id and the record behind it.
public struct PredictionSource: Equatable, Sendable {
    /// The branch of R8: `R4`, `R6`, `R7`, `R10`, `R11` or `R2`.
    public var rule: RuleID
    /// The record behind the branch (nil: none, e.g. R6 or the built-in default).
    public var seq: Int?
    /// The engagement or recovery record that applied a deferred call, when the call was deferred.
    public var appliedBy: Int?

    /// Creates a prediction source.
    public init(rule: RuleID, seq: Int?, appliedBy: Int? = nil) {
        self.rule = rule
        self.seq = seq
        self.appliedBy = appliedBy
    }
}

/// The words a report uses for the trace's layer: SRTC has channels that users join and leave;
/// SMeeting has meetings that members enter and exit. Prose never mixes them.
public struct LayerWords: Sendable, Equatable {
    /// `channel` or `meeting`.
    public let session: String
    /// `join` or `enter`.
    public let join: String
    /// `joined` or `entered`.
    public let joined: String
    /// `joining` or `entering`.
    public let joining: String
    /// `leave` or `exit`.
    public let leave: String
    /// `left` or `exited`.
    public let left: String
    /// `user` or `member`.
    public let participant: String
    /// The SDK's product name.
    public let product: String

    /// The words for a layer.
    public init(_ layer: Layer) {
        switch layer {
        case .srtc:
            session = "channel"; join = "join"; joined = "joined"; joining = "joining"
            leave = "leave"; left = "left"; participant = "user"; product = "SRTC"
        case .smeeting:
            session = "meeting"; join = "enter"; joined = "entered"; joining = "entering"
            leave = "exit"; left = "exited"; participant = "member"; product = "SMeeting"
        }
    }

    /// The query for the real route: `currentRoute` (SRTC `AudioRouteSession`) or `currentAudioRoute` (SMeeting).
    public var currentRouteAPI: String { product == "SRTC" ? "currentRoute" : "currentAudioRoute" }

    /// "leave the channel" / "exit the meeting".
    public var leaveTheSession: String { "\(leave) the \(session)" }
}
