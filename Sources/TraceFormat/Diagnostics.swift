/// How serious a finding is.
public enum Severity: String, Sendable, Comparable, CaseIterable {
    case info, warning, error

    private var rank: Int { self == .info ? 0 : self == .warning ? 1 : 2 }
    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
}

/// A diagnostic: a stable code, the rule it comes from, the records involved, and advice in the layer's words.
public struct Finding: Equatable, Sendable {
    /// Stable code, e.g. `route.ineffective`.
    public var code: FindingCode
    /// How serious it is.
    public var severity: Severity
    /// The contract rule, e.g. `R4`, when one applies.
    public var rule: RuleID?
    /// The seqs of the records involved, the deciding one first.
    public var seqs: [Int]
    /// When it was raised (ms since the trace started).
    public var t: Int64
    /// What happened.
    public var message: String
    /// What the app (or the engineer) should do.
    public var advice: String

    /// Creates a finding.
    public init(code: FindingCode, severity: Severity, rule: RuleID?, seqs: [Int], t: Int64, message: String, advice: String) {
        self.code = code
        self.severity = severity
        self.rule = rule
        self.seqs = seqs
        self.t = t
        self.message = message
        self.advice = advice
    }
}

/// The verdict on one app call (contract, "Verdicts on calls").
public struct Verdict: Equatable, Sendable {
    /// The call's seq.
    public var seq: Int
    /// The call's time.
    public var t: Int64
    /// The call's record type, e.g. `api.setRoute`.
    public var call: String
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

    /// Creates a verdict.
    public init(seq: Int, t: Int64, call: String, api: String? = nil, verdict: VerdictKind, cause: VerdictCause? = nil,
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

    /// "join the channel" / "enter the meeting".
    public var joinTheSession: String { "\(join) the \(session)" }
    /// "leave the channel" / "exit the meeting".
    public var leaveTheSession: String { "\(leave) the \(session)" }
}
