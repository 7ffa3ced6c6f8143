import TraceModel

extension AppleAudioMapping {
    // MARK: Interruptions

    /// `AVAudioSession.InterruptionReason` raw values (`AVAudioSessionInterruptionReasonKey`, iOS 14.5+):
    /// 0 default (another session was activated: the cause is found elsewhere), 1 `appWasSuspended` (a
    /// stale interruption, I9), 2 `builtInMicMuted`, 3 `sceneWasBackgrounded`, 4 `routeDisconnected`;
    /// nil for the default reason, an unlisted value for one this table does not know.
    public static func interruptionCause(reasonRawValue: UInt) -> InterruptionCause? {
        switch reasonRawValue {
        case 0: nil
        case 1: .appWasSuspended
        case 2: .unlisted("builtInMicMuted")
        case 3: .unlisted("sceneWasBackgrounded")
        case 4: .unlisted("routeDisconnected")
        default: .unlisted("reason\(reasonRawValue)")
        }
    }

    /// Decides what an interruption notification records, when the other call that explains it may be
    /// reported by `CXCallObserver` just before or just after it (iOS delivers the two in either order).
    ///
    /// A began interruption whose reason says what it is (suspended, a muted microphone, a lost route),
    /// or that comes while another call is up, is recorded at once. One with the default reason and no
    /// call up waits for up to `callWindowNanos`: a call that comes up meanwhile makes it `systemCall`;
    /// otherwise it is `unknown` (Siri, another app). Either way it is recorded with the notification's
    /// time (`madeAt`), so the SDK's own callback, recorded meanwhile, lands in the same millisecond and
    /// is replayed after it.
    public struct InterruptionResolver: Sendable, Equatable {
        /// How long a began interruption waits for the call that may explain it.
        public static let callWindowNanos: UInt64 = 500_000_000

        /// A record to make, with the time it stands for.
        public struct Decision: Equatable, Sendable {
            /// The record.
            public var event: TraceRecorder.Event
            /// When it was made: the notification's time.
            public var madeAt: UInt64
        }

        /// The began interruption waiting for its cause: when it came, and its `wasSuspended`.
        public private(set) var pending: (nanos: UInt64, wasSuspended: Bool?)?

        /// Creates a resolver with nothing pending.
        public init() {}

        public static func == (a: Self, b: Self) -> Bool { a.pending?.nanos == b.pending?.nanos && a.pending?.wasSuspended == b.pending?.wasSuspended }

        /// When a pending interruption must be decided without a call (`tick(at:)`), if one is pending.
        public var deadline: UInt64? { pending.map { $0.nanos + Self.callWindowNanos } }

        /// An interruption notification. `typeRawValue` is `AVAudioSession.InterruptionType` (1 began,
        /// 0 ended); `optionsRawValue` is `AVAudioSession.InterruptionOptions` (bit 1 = shouldResume),
        /// present only when it ended; `reasonRawValue` is `AVAudioSessionInterruptionReasonKey`'s value and
        /// `wasSuspended` `AVAudioSessionInterruptionWasSuspendedKey`'s (iOS 10.3–14.5), when present.
        public mutating func interruption(typeRawValue: UInt, optionsRawValue: UInt?, reasonRawValue: UInt?, wasSuspended: Bool?,
                                          otherCallUp: Bool, at nanos: UInt64) -> [Decision] {
            switch typeRawValue {
            case 1:
                var out = settle()
                let suspended: Bool? = wasSuspended == true ? true : nil
                if let reason = reasonRawValue, let cause = interruptionCause(reasonRawValue: reason) {
                    out.append(Decision(event: .interruptionBegan(cause: cause, wasSuspended: suspended), madeAt: nanos))
                } else if suspended == true {
                    out.append(Decision(event: .interruptionBegan(cause: nil, wasSuspended: true), madeAt: nanos))
                } else if otherCallUp {
                    out.append(Decision(event: .interruptionBegan(cause: .systemCall), madeAt: nanos))
                } else {
                    pending = (nanos, suspended)
                }
                return out
            case 0:
                return settle() + [Decision(event: .interruptionEnded(shouldResume: optionsRawValue.map { $0 & 1 != 0 }), madeAt: nanos)]
            default:
                return []
            }
        }

        /// Another call changed (before its `os.callState` is recorded): a call that comes up decides a
        /// pending interruption as `systemCall`.
        public mutating func callChanged(to state: CallState, at nanos: UInt64) -> [Decision] {
            guard let p = pending, state.isCallUp, nanos <= p.nanos + Self.callWindowNanos else { return tick(at: nanos) }
            pending = nil
            return [Decision(event: .interruptionBegan(cause: .systemCall, wasSuspended: p.wasSuspended), madeAt: p.nanos)]
        }

        /// The time passes: a pending interruption whose window is over is `unknown`.
        public mutating func tick(at nanos: UInt64) -> [Decision] {
            guard let d = deadline, nanos >= d else { return [] }
            return settle()
        }

        /// Records a pending interruption as it stands (`unknown`).
        private mutating func settle() -> [Decision] {
            guard let p = pending else { return [] }
            pending = nil
            return [Decision(event: .interruptionBegan(cause: .unknown, wasSuspended: p.wasSuspended), madeAt: p.nanos)]
        }
    }

    // MARK: Calls

    /// The state of a `CXCall` from its flags: ended, then on hold, connected, dialing (outgoing, not
    /// yet connected), else incoming.
    public static func callState(hasConnected: Bool, hasEnded: Bool, isOutgoing: Bool, isOnHold: Bool) -> CallState {
        if hasEnded { return .disconnected }
        if hasConnected { return isOnHold ? .held : .connected }
        return isOutgoing ? .dialing : .incoming
    }

    /// Follows the calls `CXCallObserver` reports and says which `os.callState` to record: the app's own
    /// calls (those CallKit told the app about: `answer`, `start`) are left out, and a call whose state
    /// did not change records nothing.
    public struct CallTracker: Sendable {
        private var states: [String: CallState] = [:]
        private var own: Set<String> = []

        /// Creates an empty tracker.
        public init() {}

        /// Marks a call as the app's own (from CXAnswerCallAction / CXStartCallAction).
        public mutating func markOwn(_ callId: String) {
            own.insert(callId)
            states[callId] = nil
        }

        /// A call changed; returns the state to record, if any.
        public mutating func changed(callId: String, state: CallState) -> CallState? {
            guard !own.contains(callId), states[callId] != state else { return nil }
            states[callId] = state
            if state == .disconnected { states[callId] = nil }
            return state
        }

        /// Whether another call is up (incoming, dialing, connected or held).
        public var otherCallUp: Bool { states.values.contains { $0.isCallUp } }
    }

    /// The `os.callKit` event of a `CXSetHeldCallAction`: `hold` when `isOnHold`, else `unhold` (I11).
    public static func heldCallEvent(isOnHold: Bool) -> CallKitEvent { isOnHold ? .hold : .unhold }
}
