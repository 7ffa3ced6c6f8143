import TraceModel

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
