import Contract
import TraceModel

// What the contract expects to come within a window (R15, R17, R18, I10, I11, I14) and what it reports
// once: the engine's bookkeeping beside the SDK's state. Each window is a timer of its own, and a window
// cancelled before its due time raises nothing.
extension RouteEngine {
    /// A call-path window (R17): a successful `playAndRecord` activation or a `didActivate` must come.
    public struct CallPathWindow: Equatable, Sendable {
        /// The engagement or the recovering record.
        public var seq: Int
        /// When it opened.
        public var t: Int64
        /// Whether a recovery opened it (then only an activation in another category is reported).
        public var afterRecovery: Bool
        /// The error of the last failed activation in it.
        public var lastError: String?
        /// The category of the last successful activation in another category in it.
        public var otherCategory: String?
        /// When the first successful activation in another category in it came (X3: from then on, a
        /// divergence was open at a moment `session.callPathNotUp` accounts for).
        public var otherCategoryAt: Int64?
    }

    /// A deactivation window (R18): a successful `obs.sessionDeactivated` or a `didDeactivate` must come.
    public struct DeactivationWindow: Equatable, Sendable {
        /// The leave or exit.
        public var seq: Int
        /// When.
        public var t: Int64
        /// The error of the last failed deactivation in it.
        public var lastError: String?
    }

    /// I14 (b): after a recovery, an activation and the recovered callback are due in the recovery window.
    public struct CallbackWindow: Equatable, Sendable {
        /// The interruption (or reset) it recovered from.
        public var interruptionSeq: Int
        /// The recovering record (nil: a timer).
        public var triggerSeq: Int?
        /// When the engine recovered.
        public var t: Int64
        /// A successful activation came in it.
        public var activated: Bool
        /// The recovered callback came in it.
        public var called: Bool
    }

    /// R15: a flush window, opened by a device change or a recovery while an override is set.
    public struct FlushWindow: Equatable, Sendable {
        /// The record that opened it: the device record, or the interruption's `os.interruptionBegan` (the
        /// hold's `didDeactivate`) for a recovery.
        public var openedBy: Int
        /// When it opened.
        public var t: Int64
        /// The latest counted reading (`unknown` readings are ignored).
        public var latest: RouteReading?
        /// The reading that started the run of readings of the latest reading's route: it settles at its
        /// `t` + tolerance + 1 unless another route is read first.
        public var runStart: RouteReading?
        /// The override as it was before iOS flushed it (nil until then): a reading of its route that
        /// settles restores it.
        public var flushed: FlushedOverride?
    }

    /// An override R15 found flushed, kept so that a late fallback to it can restore it.
    public struct FlushedOverride: Equatable, Sendable {
        /// The target it asked for.
        public var target: RouteTarget
        /// The route call that had set it.
        public var seq: Int?
        /// The engagement or recovery that applied that call, when it was deferred (X4).
        public var appliedBy: Int?
    }

    /// A CallKit hold in progress (I11).
    public struct Hold: Equatable, Sendable {
        /// The `didDeactivate` that began it.
        public var seq: Int
        /// The `unhold` records whose reactivation windows are open.
        public var unholds: [Int] = []
        /// Whether `callkit.noReactivation` was raised for it (once per hold).
        public var reported = false
        /// Whether the app's call ended (`end`): nothing is expected to reactivate any more.
        public var obligationEnded = false
    }

    /// What the records of one millisecond did before the record being replayed, for the windows a later
    /// record of that ms opens (v3, "Same ms": a window opened at t0 also holds the records of t0 logged
    /// before its opening record).
    public struct SameMs: Equatable, Sendable {
        /// The millisecond.
        public var t: Int64
        /// `sdk.interrupted` records that met no due interrupted callback (I14 a).
        public var unusedInterruptedCallbacks = 0
        /// `sdk.recovered` records (I14 b, `interruption.notRecovered`).
        public var recoveredCallback = false
        /// `sdk.recovered` records replayed while interrupted, since the latest beginning (I14 c).
        public var recoveredWhileInterrupted: [Int] = []
        /// The latest successful activation (`obs.sessionActivated` or `didActivate`): I14 b,
        /// `interruption.notRecovered`, and the rebuild of a reset at its ms (I5).
        public var activation: Activation?
        /// A `didActivate`: an `answer` or `start` at its ms is met by it (I7, I12).
        public var didActivate = false
        /// The call path came up (R17).
        public var pathCameUp = false
        /// The category of the last successful activation in another category (R17).
        public var otherCategory: String?
        /// The error of the last failed activation (R17).
        public var activationError: String?
        /// A successful deactivation or `didDeactivate` (R18).
        public var deactivated = false
        /// The error of the last failed deactivation (R18).
        public var deactivationError: String?
        /// The latest reading that showed a route (R15: `unknown` readings are ignored).
        public var reading: RouteReading?

        /// Nothing yet at `t`.
        public init(t: Int64) { self.t = t }
    }

    /// The engine's bookkeeping for the windows and the once-only findings of contract v3.
    public struct Obligations: Equatable, Sendable {
        /// Open call-path windows (R17).
        public var callPath: [CallPathWindow] = []
        /// The open deactivation window (R18).
        public var deactivation: DeactivationWindow?
        /// The open I14 (b) windows, oldest first: a later interruption or recovery does not cancel one, a
        /// leave or exit does.
        public var callbacks: [CallbackWindow] = []
        /// When the latest recovery's I14 (b) window opened, while it is open (X3 reads it).
        public var latestCallbackT: Int64?
        /// The records of the current millisecond, as the windows a later record of it opens read them.
        public var sameMs = SameMs(t: -1)
        /// Interruptions whose interrupted callback is due (I14 (a)): record and time, oldest first.
        public var interruptedDue: [RouteReading] = []
        /// Checks that fell due before the trace's first record of their kind (`sdk.interrupted`,
        /// `sdk.recovered`): raised at that record if one comes.
        public var heldInterrupted: [Finding] = []
        public var heldRecovered: [Finding] = []
        /// Which callback kinds the trace has contained so far.
        public var sawInterruptedCallback = false
        public var sawRecoveredCallback = false
        /// Recovered callbacks since the latest recovery (nil once the next interruption began, I14 (c)).
        public var recoveredCallbacks: Int?
        /// The flush window (R15).
        public var flush: FlushWindow?
        /// The hold in progress (I11).
        public var hold: Hold?
        /// When the first `os.interruptionBegan` since the engine was last not interrupted came, and its
        /// record (I10: the call has been silent since then).
        public var silentSince: RouteReading?
        /// Whether the override was set or changed during the open interruption (R15 (b) opens no window then):
        /// cleared when an interruption begins while the engine was not interrupted (not when one replaces
        /// another: the deferred call is still applied at the recovery) and when the recovery reads it.
        public var overrideChangedWhileInterrupted = false
        /// Whether I12's window (from an `answer` or `start` to the next `didActivate` or `end`) holds an
        /// `answer`: its `didActivate` closes an answer's window (I13), even after I7's `noDidActivate`.
        public var answeredWindow = false
        /// When a `didActivate` closed an `answer`'s window (I13 reads the match window after it).
        public var answeredActivationAt: Int64?
        /// Whether any `obs.sessionDeactivated` record appeared so far (R18's gate).
        public var deactivationsRecorded = false
        /// The open-vocabulary fields and values `trace.unknownValue` was raised for (T1: once each).
        public var unknownValues: Set<String> = []
        /// Whether `device.notIOS` was raised (R16).
        public var notIOSReported = false
        /// The explanation an interruption finding gives divergences (X3): from the recovery it names until
        /// the next successful activation.
        public var recoveryExplanation: RecoveryExplanation?
        /// Whether `session.callPathNotUp` explains divergences now (X3): raised for an activation in another
        /// category, until the next `playAndRecord` activation or `didActivate`.
        public var callPathExplanation: CallPathExplanation?
        /// Creates empty bookkeeping.
        public init() {}
    }

    /// A successful activation: its record and time.
    public struct Activation: Equatable, Sendable {
        /// The `obs.sessionActivated` or `didActivate`.
        public var seq: Int
        /// When.
        public var t: Int64
    }

    /// X3: `session.callPathNotUp` raised for an activation in another category.
    public struct CallPathExplanation: Equatable, Sendable {
        /// Its window's record (the engagement or the recovering record), which the finding names.
        public var seq: Int
        /// When the first activation in another category in that window came: the row covers the moments
        /// from then on, including those before the finding was raised.
        public var from: Int64
    }

    /// X3: a recovery an interruption finding names, explaining divergences from it on.
    public struct RecoveryExplanation: Equatable, Sendable {
        /// `interruption.notRecovered` or `interruption.recoveredWithoutActivation`.
        public var code: FindingCode
        /// When the recovery it names happened (nil: a callback before the recovery, from that recovery on).
        public var from: Int64?
        /// The record the finding names first.
        public var seq: Int
    }
}
