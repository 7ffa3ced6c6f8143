import Contract
import RouteEngine
import TestSupport
import TraceModel
import XCTest

/// Contract v3's interruptions: I8 (the SDK may recover early), I9 (stale interruptions), I10 (an
/// interruption that never ends), and v2's recovery window with its end made inclusive.
final class RouteEngineV3InterruptionTests: XCTestCase {
    private func began(_ store: inout TestStore, _ seq: Int, at t: Int64, cause: InterruptionCause = .otherApp) {
        store.send(.interruptionBegan(cause: cause, wasSuspended: nil), at: t, outputs: [timer(t + 1001, .interruptedCallback(seq: seq))]) {
            $0.interruptedBy(seq); $0.predictionSeq = seq
        }
    }

    func test_I8_aCallSessionActivationIsTheRecovery_inTheBackgroundItCameEarly() {
        var store = TestStore.started()
        store.send(.appState(state: .background), at: 50) { $0.foreground = false }
        began(&store, 3, at: 100)
        store.send(.interruptionEnded(shouldResume: true), at: 200) { $0.recoveryPending = true }   // I2: not in the foreground
        // It recovers at once; it counts in its own recovery window (met) and call path (no R17 window).
        store.send(callSession(), at: 300, outputs: [
            .recovered(t: 300), timer(5301, .recoveryWindow(interruptionSeq: 3)),
            finding("interruption.recoveredEarly", .info, "I8", [5, 3], t: 300),
        ]) { $0.recoveredAt(5); $0.activatedSinceInterruption = true; $0.activationsRecorded = true; $0.callSessionUp(5, "voiceChat") }
        store.send(.appState(state: .foreground), at: 400) { $0.foreground = true }   // nothing left to recover
        store.send(.sdkRecovered, at: 500)
        store.fire(RouteTimer(due: 5301, kind: .recoveryWindow(interruptionSeq: 3)))
    }

    func test_I8_withoutAnEnd_theEndNeverArrived_andBothFindingsWhenBothHold() {
        var store = TestStore.started(.smeeting)
        began(&store, 2, at: 100)
        store.send(callSession(), at: 300, outputs: [
            .recovered(t: 300), timer(5301, .recoveryWindow(interruptionSeq: 2)),
            finding("interruption.endNeverArrived", .info, "I8", [3, 2], t: 300),
        ]) { $0.recoveredAt(3); $0.activatedSinceInterruption = true; $0.activationsRecorded = true; $0.callSessionUp(3, "voiceChat") }
        store.send(.interruptionEnded(shouldResume: true), at: 400)                 // then ignored: not interrupted
        var both = TestStore.started(.smeeting)
        both.skip(.appState(state: .background), at: 50)
        began(&both, 3, at: 100)
        both.send(callSession(), at: 300, outputs: [
            .recovered(t: 300), timer(5301, .recoveryWindow(interruptionSeq: 3)),
            finding("interruption.recoveredEarly", .info, "I8", [4, 3], t: 300),
            finding("interruption.endNeverArrived", .info, "I8", [4, 3], t: 300),
        ]) { $0.recoveredAt(4); $0.activatedSinceInterruption = true; $0.activationsRecorded = true; $0.callSessionUp(4, "voiceChat") }
    }

    func test_I8_notWithASystemCallUp_norInAnotherCategory() {
        var store = TestStore.started()
        store.skip(.callState(state: .connected), at: 50)
        store.send(.interruptionBegan(cause: .systemCall, wasSuspended: nil), at: 100, outputs: [timer(1101, .interruptedCallback(seq: 3))]) {
            $0.interruptedBy(3); $0.predictionSeq = 3; $0.callUpDuringInterruption = true
        }
        // Still I4's premature reactivation: no recovery, and the path does not come up (R17).
        store.send(callSession(), at: 200, outputs: [finding("interruption.prematureReactivation", .warning, "I4", [4, 3], t: 200)]) {
            $0.activationsRecorded = true; $0.activatedSinceInterruption = true
            $0.callSession = .init(seq: 4, mode: "voiceChat", allowsAirPlay: false)
        }
        var other = TestStore.started()
        began(&other, 2, at: 100)
        other.send(otherActivation("playback"), at: 200) { $0.activationsRecorded = true; $0.activatedSinceInterruption = true }
        XCTAssertTrue(other.state.interrupted, "only a call session (playAndRecord) recovers")
    }

    func test_I9_aStaleInterruptionIsPendingAtOnce_andRecoversAtItsOwnRecord_withNoCallbackDue() {
        for stale in [RecordBody.interruptionBegan(cause: .siri, wasSuspended: true),
                      .interruptionBegan(cause: .appWasSuspended, wasSuspended: nil)] {
            var store = TestStore.started()
            store.skip(failedActivation(), at: 10)                                       // seq 2: the I5 gate
            store.send(stale, at: 100, outputs: [
                .recovered(t: 100), timer(5101, .recoveryWindow(interruptionSeq: 3)), timer(5101, .callPathWindow(seq: 3)),
            ]) {
                $0.interruptionSeq = 3; $0.activatedSinceInterruption = false; $0.predictionSeq = 3
                $0.pendingConfirmation = .init(interruptionSeq: 3, triggerSeq: 3, recoveredAt: 100)
            }
            // The session really was deactivated: notRecovered applies; R17 after a recovery only for another category.
            store.fire(RouteTimer(due: 5101, kind: .recoveryWindow(interruptionSeq: 3)),
                       outputs: [finding("interruption.notRecovered", .error, "I3", [3], t: 5101)]) { $0.pendingConfirmation = nil }
            store.fire(RouteTimer(due: 5101, kind: .callPathWindow(seq: 3)))
        }
    }

    func test_I9_pendingUntilTheNextAttempt_anActivationMeanwhileDoesNotRecoverButPutsThePathUp() {
        var store = TestStore.started(.smeeting)
        store.send(.appState(state: .background), at: 50) { $0.foreground = false }
        // I3's attempt at the record itself fails in the background; no callback is due (I14 a) for it.
        store.send(.interruptionBegan(cause: nil, wasSuspended: true), at: 100) {
            $0.interruptedBy(3, .stale); $0.recoveryPending = true; $0.predictionSeq = 3
        }
        // I8 does not apply to it: still interrupted, but the call path is up at its recovery.
        store.send(callSession(), at: 200) {
            $0.activationsRecorded = true; $0.activatedSinceInterruption = true; $0.callSessionUp(4, "voiceChat")
        }
        // No R17 window and notRecovered met: only the recovered event.
        store.send(.appState(state: .foreground), at: 300, outputs: [.recovered(t: 300)]) { $0.foreground = true; $0.recoveredAt(5) }
    }

    func test_I10_anInterruptionThatNeverEnds_reportedAtTheLeave_onlyWhenLongerThanTheRecoveryWindow() {
        var store = TestStore.started()
        began(&store, 2, at: 3000)
        // Interrupted at the leave: no R18 window; no prediction before or after.
        store.send(.leaveChannel, at: 8001, outputs: [finding("interruption.neverRecovered", .error, "I10", [2, 3], t: 8001)]) {
            $0.engaged = false; $0.leftSeq = 3; $0.interrupted = false; $0.interruptionKind = nil
        }
        var exactly = TestStore.started(.smeeting)
        began(&exactly, 2, at: 3000)
        exactly.send(.exitMeeting, at: 8000) { $0.engaged = false; $0.leftSeq = 3; $0.interrupted = false; $0.interruptionKind = nil }
    }

    func test_I10_measuredFromTheFirstBeginning_andAtTheEndOfTheTrace() {
        var store = TestStore.started(.smeeting)
        began(&store, 2, at: 2000)
        // A second beginning while interrupted starts a new interruption, but the call has been silent since 2000.
        store.send(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 6000) { $0.interruptionSeq = 3 }
        store.send(.sdkLog(level: "info", message: "tick"), at: 7500)
        store.finish(outputs: [finding("interruption.neverRecovered", .error, "I10", [2], t: 7500)])
        store.finish()                                                                   // once
    }

    func test_I10_notInTheBackgroundNorWithACallUp_butAfterAnEndThatRecoveredNothing() {
        var background = TestStore.started()
        background.skip(.appState(state: .background), at: 10)
        began(&background, 3, at: 100)
        background.send(.leaveChannel, at: 9000) { $0.engaged = false; $0.leftSeq = 4; $0.interrupted = false; $0.interruptionKind = nil }
        var call = TestStore.started()
        began(&call, 2, at: 100)
        call.skip(.callState(state: .connected), at: 200)
        call.send(.leaveChannel, at: 9000) { $0.engaged = false; $0.leftSeq = 4; $0.interrupted = false; $0.interruptionKind = nil }
        // The end came while the call was up, then the call went idle (no retry) and no foreground record came.
        var ended = TestStore.started()
        began(&ended, 2, at: 100)
        ended.skip(.callState(state: .connected), at: 200)
        ended.skip(.interruptionEnded(shouldResume: true), at: 300)
        ended.skip(.callState(state: .idle), at: 400)
        ended.send(.leaveChannel, at: 9000, outputs: [finding("interruption.neverRecovered", .error, "I10", [2, 6], t: 9000)]) {
            $0.engaged = false; $0.leftSeq = 6; $0.interrupted = false; $0.interruptionKind = nil; $0.recoveryPending = false
        }
    }

    func test_I10_notForAResetNorAHold() {
        for begin in [RecordBody.mediaServicesReset, .callKit(event: .didDeactivate, callId: nil)] {
            var store = TestStore.started()
            store.skip(begin, at: 100)                                                   // seq 2
            store.send(.leaveChannel, at: 9000) {
                $0.engaged = false; $0.leftSeq = 3; $0.interrupted = false; $0.interruptionKind = nil; $0.resetSeq = nil
            }
            store.finish()
        }
    }

    func test_I3_theRecoveryWindowsEndIsInclusive_anActivationAtT0PlusWMeetsIt() {
        var store = TestStore.started()
        store.skip(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 100)          // seq 2
        store.skip(.interruptionEnded(shouldResume: true), at: 200)                         // seq 3: recovers
        store.send(callSession(), at: 5200) {
            $0.activationsRecorded = true; $0.activatedSinceInterruption = true; $0.pendingConfirmation = nil
            $0.callSessionUp(4, "voiceChat")
        }
        store.fire(RouteTimer(due: 5201, kind: .recoveryWindow(interruptionSeq: 2)))
        // One ms later the window's timer fires first: the activation does not withdraw the finding.
        var late = TestStore.started()
        late.skip(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 100)
        late.skip(.interruptionEnded(shouldResume: true), at: 200)
        late.fire(RouteTimer(due: 5201, kind: .recoveryWindow(interruptionSeq: 2)),
                  outputs: [finding("interruption.notRecovered", .error, "I3", [3, 2], t: 5201)]) { $0.pendingConfirmation = nil }
        late.send(callSession(), at: 5201) {
            $0.activationsRecorded = true; $0.activatedSinceInterruption = true; $0.callSessionUp(4, "voiceChat")
        }
    }
}
