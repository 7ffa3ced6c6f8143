import TraceModel

/// The words a report uses for the trace's layer: SRTC has channels that users join and leave;
/// SMeeting has meetings that members enter and exit. Prose never mixes them.
package struct LayerWords: Sendable, Equatable {
    /// `channel` or `meeting`.
    package let session: String
    /// `join` or `enter`.
    package let join: String
    /// `joined` or `entered`.
    package let joined: String
    /// `joining` or `entering`.
    package let joining: String
    /// `leave` or `exit`.
    package let leave: String
    /// `left` or `exited`.
    package let left: String
    /// `user` or `member`.
    package let participant: String
    /// The SDK's product name.
    package let product: String

    /// The words for a layer.
    package init(_ layer: Layer) {
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
    package var currentRouteAPI: String { product == "SRTC" ? "currentRoute" : "currentAudioRoute" }

    /// "leave the channel" / "exit the meeting".
    package var leaveTheSession: String { "\(leave) the \(session)" }
}
