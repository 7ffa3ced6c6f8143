import Contract
import TraceModel

// What the contract expects to come within a window (R15, R17, R18, I10, I11, I14) and what it reports
// once: the engine's bookkeeping beside the SDK's state. Each window is a timer of its own, and a window
// cancelled before its due time raises nothing.
extension RouteEngine {
    /// A call-path window (R17): a successful `playAndRecord` activation or a `didActivate` must come.
    package struct CallPathWindow: Equatable, Sendable {
        /// The engagement or the recovering record.
        package var seq: Int
        /// When it opened.
        package var t: Int64
        /// Whether a recovery opened it (then only an activation in another category is reported).
        package var afterRecovery: Bool
        /// The error of the last failed activation in it.
        package var lastError: String?
        /// The category of the last successful activation in another category in it.
        package var otherCategory: String?
        /// When the first successful activation in another category in it came (X3: from then on, a
        /// divergence was open at a moment `session.callPathNotUp` accounts for).
        package var otherCategoryAt: Int64?
    }

    /// A deactivation window (R18): a successful `obs.sessionDeactivated` or a `didDeactivate` must come.
    package struct DeactivationWindow: Equatable, Sendable {
        /// The leave or exit.
        package var seq: Int
        /// When.
        package var t: Int64
        /// The error of the last failed deactivation in it.
        package var lastError: String?
    }

    /// I14 (b): after a recovery, an activation and the recovered callback are due in the recovery window.
    package struct CallbackWindow: Equatable, Sendable {
        /// The interruption (or reset) it recovered from.
        package var interruptionSeq: Int
        /// The recovering record (nil: a timer).
        package var triggerSeq: Int?
        /// When the engine recovered.
        package var t: Int64
        /// A successful activation came in it.
        package var activated: Bool
        /// The recovered callback came in it.
        package var called: Bool
    }

    /// R15: a flush window, opened by a device change or a recovery while an override is set.
    package struct FlushWindow: Equatable, Sendable {
        /// The record that opened it: the device record, or the interruption's `os.interruptionBegan` (the
        /// hold's `didDeactivate`) for a recovery.
        package var openedBy: Int
        /// When it opened.
        package var t: Int64
        /// The latest counted reading (`unknown` readings are ignored).
        package var latest: RouteReading?
        /// The reading that started the run of readings of the latest reading's route: it settles at its
        /// `t` + tolerance + 1 unless another route is read first.
        package var runStart: RouteReading?
        /// The override as it was before iOS flushed it (nil until then): a reading of its route that
        /// settles restores it.
        package var flushed: FlushedOverride?
    }

    /// An override R15 found flushed, kept so that a late fallback to it can restore it.
    package struct FlushedOverride: Equatable, Sendable {
        /// The target it asked for.
        package var target: RouteTarget
        /// The route call that had set it.
        package var seq: Int?
        /// The engagement or recovery that applied that call, when it was deferred (X4).
        package var appliedBy: Int?
    }

    /// A CallKit hold in progress (I11).
    package struct Hold: Equatable, Sendable {
        /// The `didDeactivate` that began it.
        package var seq: Int
        /// The `unhold` records whose reactivation windows are open.
        package var unholds: [Int] = []
        /// Whether `callkit.noReactivation` was raised for it (once per hold).
        package var reported = false
        /// Whether the app's call ended (`end`): nothing is expected to reactivate any more.
        package var obligationEnded = false
    }

    /// What the records of one millisecond did before the record being replayed, for the windows a later
    /// record of that ms opens (v3, "Same ms": a window opened at t0 also holds the records of t0 logged
    /// before its opening record).
    package struct SameMs: Equatable, Sendable {
        /// The millisecond.
        package var t: Int64
        /// `sdk.interrupted` records that met no due interrupted callback (I14 a).
        package var unusedInterruptedCallbacks = 0
        /// `sdk.recovered` records (I14 b, `interruption.notRecovered`).
        package var recoveredCallback = false
        /// `sdk.recovered` records replayed while interrupted, since the latest beginning (I14 c).
        package var recoveredWhileInterrupted: [Int] = []
        /// The latest successful activation (`obs.sessionActivated` or `didActivate`): I14 b,
        /// `interruption.notRecovered`, and the rebuild of a reset at its ms (I5).
        package var activation: Activation?
        /// A `didActivate`: an `answer` or `start` at its ms is met by it (I7, I12).
        package var didActivate = false
        /// The call path came up (R17).
        package var pathCameUp = false
        /// The category of the last successful activation in another category (R17).
        package var otherCategory: String?
        /// The error of the last failed activation (R17).
        package var activationError: String?
        /// A successful deactivation or `didDeactivate` (R18).
        package var deactivated = false
        /// The error of the last failed deactivation (R18).
        package var deactivationError: String?
        /// The latest reading that showed a route (R15: `unknown` readings are ignored).
        package var reading: RouteReading?

        /// Nothing yet at `t`.
        package init(t: Int64) { self.t = t }
    }

    /// The engine's bookkeeping for the windows and the once-only findings of contract v3.
    package struct Obligations: Equatable, Sendable {
        /// Open call-path windows (R17).
        package var callPath: [CallPathWindow] = []
        /// The open deactivation window (R18).
        package var deactivation: DeactivationWindow?
        /// The open I14 (b) windows, oldest first: a later interruption or recovery does not cancel one, a
        /// leave or exit does.
        package var callbacks: [CallbackWindow] = []
        /// When the latest recovery's I14 (b) window opened, while it is open (X3 reads it).
        package var latestCallbackT: Int64?
        /// The records of the current millisecond, as the windows a later record of it opens read them.
        package var sameMs = SameMs(t: -1)
        /// Interruptions whose interrupted callback is due (I14 (a)): record and time, oldest first.
        package var interruptedDue: [RouteReading] = []
        /// Checks that fell due before the trace's first record of their kind (`sdk.interrupted`,
        /// `sdk.recovered`): raised at that record if one comes.
        package var heldInterrupted: [Finding] = []
        package var heldRecovered: [Finding] = []
        /// Which callback kinds the trace has contained so far.
        package var sawInterruptedCallback = false
        package var sawRecoveredCallback = false
        /// Recovered callbacks since the latest recovery (nil once the next interruption began, I14 (c)).
        package var recoveredCallbacks: Int?
        /// The flush window (R15).
        package var flush: FlushWindow?
        /// The hold in progress (I11).
        package var hold: Hold?
        /// When the first `os.interruptionBegan` since the engine was last not interrupted came, and its
        /// record (I10: the call has been silent since then).
        package var silentSince: RouteReading?
        /// Whether the override was set or changed during the open interruption (R15 (b) opens no window then):
        /// cleared when an interruption begins while the engine was not interrupted (not when one replaces
        /// another: the deferred call is still applied at the recovery) and when the recovery reads it.
        package var overrideChangedWhileInterrupted = false
        /// Whether I12's window (from an `answer` or `start` to the next `didActivate` or `end`) holds an
        /// `answer`: its `didActivate` closes an answer's window (I13), even after I7's `noDidActivate`.
        package var answeredWindow = false
        /// When a `didActivate` closed an `answer`'s window (I13 reads the match window after it).
        package var answeredActivationAt: Int64?
        /// Whether any `obs.sessionDeactivated` record appeared so far (R18's gate).
        package var deactivationsRecorded = false
        /// The open-vocabulary fields and values `trace.unknownValue` was raised for (T1: once each).
        package var unknownValues: Set<String> = []
        /// Whether `device.notIOS` was raised (R16).
        package var notIOSReported = false
        /// The explanation an interruption finding gives divergences (X3): from the recovery it names until
        /// the next successful activation.
        package var recoveryExplanation: RecoveryExplanation?
        /// Whether `session.callPathNotUp` explains divergences now (X3): raised for an activation in another
        /// category, until the next `playAndRecord` activation or `didActivate`.
        package var callPathExplanation: CallPathExplanation?
        /// Creates empty bookkeeping.
        package init() {}
    }

    /// A successful activation: its record and time.
    package struct Activation: Equatable, Sendable {
        /// The `obs.sessionActivated` or `didActivate`.
        package var seq: Int
        /// When.
        package var t: Int64
    }

    /// X3: `session.callPathNotUp` raised for an activation in another category.
    package struct CallPathExplanation: Equatable, Sendable {
        /// Its window's record (the engagement or the recovering record), which the finding names.
        package var seq: Int
        /// When the first activation in another category in that window came: the row covers the moments
        /// from then on, including those before the finding was raised.
        package var from: Int64
    }

    /// X3: a recovery an interruption finding names, explaining divergences from it on.
    package struct RecoveryExplanation: Equatable, Sendable {
        /// `interruption.notRecovered` or `interruption.recoveredWithoutActivation`.
        package var code: FindingCode
        /// When the recovery it names happened (nil: a callback before the recovery, from that recovery on).
        package var from: Int64?
        /// The record the finding names first.
        package var seq: Int
    }
}
