import Contract
import RouteEngine
import TestSupport
import TraceModel
import XCTest

/// I5 (media services reset), I6 (an end that never comes) and I7 (CallKit owns activation).
final class RouteEngineResetAndCallKitTests: XCTestCase {
    private let session = callSession()
    private let failed = failedActivation("isBusy")

    /// What a recovery at `t` by `trigger` asks for: the recovery window and, the call path being down,
    /// a call-path window (R17); both due at t + W + 1.
    private func recoveryTimers(_ interruptionSeq: Int, _ trigger: Int, at t: Int64) -> [RouteOutput] {
        [timer(t + 5001, .recoveryWindow(interruptionSeq: interruptionSeq)), timer(t + 5001, .callPathWindow(seq: trigger))]
    }

    func test_I5_resetInterruptsUntilTheNextSuccessfulActivation() {
        var store = TestStore.started()
        store.send(session, at: 10) { $0.activationsRecorded = true; $0.callSessionUp(2, "voiceChat") }
        let rebuild = RouteTimer(due: 6001, kind: .rebuildWindow(resetSeq: 3))
        // I14 (a): the reset makes the interrupted callback due; R19: it ends the call session that is up.
        store.send(.mediaServicesReset, at: 1000, outputs: [.timer(rebuild), timer(2001, .interruptedCallback(seq: 3))]) {
            $0.interruptedBy(3, .reset); $0.predictionSeq = 3; $0.callSession = nil
        }
        XCTAssertNil(store.state.predictedRoute)
        store.send(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 1100)          // ignored until the rebuild
        store.send(.interruptionEnded(shouldResume: true), at: 1200)    // no I3 attempt either
        store.send(.callState(state: .disconnected), at: 1250) { $0.callState = .disconnected }   // no retry
        store.send(.setRoute(target: .speaker, api: nil), at: 1300, outputs: [
            verdict(7, "api.setRoute", .deferred, .interrupted, causeSeq: 3, t: 1300),
            finding("route.ineffective", .info, "V1", [7, 3], t: 1300, call: 7),
        ]) { $0.override = .speaker; $0.overrideSeq = 7; $0.pendingOverrideCall = 7 }
        store.send(.callState(state: .connected), at: 1350) { $0.callState = .connected }
        store.send(failed, at: 1400)                                     // neither the rebuild nor premature (I4)
        // The rebuild recovers; its I14 (b) window and its R17 window open, and it counts in both.
        store.send(session, at: 1500, outputs: [
            .recovered(t: 1500), timer(6501, .recoveryWindow(interruptionSeq: 3)), outcome(7, .applied, t: 1500, by: 10),
            timer(6501, .callPathWindow(seq: 10)),
        ]) {
            $0.interrupted = false; $0.interruptionKind = nil; $0.resetSeq = nil; $0.activatedSinceInterruption = true
            $0.pendingOverrideCall = nil; $0.overrideAppliedBy = 10; $0.predictionSeq = 10; $0.callSessionUp(10, "voiceChat")
        }
        XCTAssertEqual(store.state.predictedRoute, .speaker, "the route is re-applied per R8")
        XCTAssertEqual(store.state.predictionSource, PredictionSource(rule: .R2, seq: 7, appliedBy: 10))
        store.fire(rebuild)
        store.send(.sdkRecovered, at: 1600)
    }

    func test_I5_notRebuiltWithinTheWindow_whenTheRecorderCapturesActivations() {
        var store = TestStore.started()
        store.skip(failed, at: 5)
        store.skip(.mediaServicesReset, at: 1000)                       // seq 3
        store.fire(RouteTimer(due: 6001, kind: .rebuildWindow(resetSeq: 3)),
                   outputs: [finding("session.notRebuiltAfterReset", .error, "I5", [3], t: 6001)])
        XCTAssertTrue(store.state.interrupted, "still waiting for the rebuild")

        var unrecorded = TestStore.started()
        unrecorded.skip(.mediaServicesReset, at: 1000)
        unrecorded.fire(RouteTimer(due: 6001, kind: .rebuildWindow(resetSeq: 2)))

        var edge = TestStore.started()
        edge.skip(failed, at: 5)
        edge.skip(.mediaServicesReset, at: 1000)
        edge.skip(session, at: 6000)                                    // exactly at the end: inside (inclusive)
        edge.fire(RouteTimer(due: 6001, kind: .rebuildWindow(resetSeq: 3)))

        var left = TestStore.started()
        left.skip(failed, at: 5)
        left.skip(.mediaServicesReset, at: 1000)
        // No prediction before (reset) nor after (R13): the prediction's record stays; interrupted, so no R18 window.
        left.send(.leaveChannel, at: 2000) {
            $0.engaged = false; $0.leftSeq = 4; $0.interrupted = false; $0.interruptionKind = nil; $0.resetSeq = nil
        }
        left.fire(RouteTimer(due: 6001, kind: .rebuildWindow(resetSeq: 3)))

        var notEngaged = TestStore.started(engaged: false)
        notEngaged.send(.mediaServicesReset, at: 10)
    }

    func test_I5_sameMs_anActivationLoggedBeforeTheResetInItsMsIsTheRebuild() {
        var store = TestStore.started()
        store.send(session, at: 10) { $0.activationsRecorded = true; $0.callSessionUp(2, "voiceChat") }
        store.send(session, at: 1000) { $0.callSessionUp(3, "voiceChat") }
        // The window opened at 1000 holds the activation of 1000 logged before the reset: it recovers at once,
        // with the session that activation set (the interrupted and recovered callbacks are still due).
        store.send(.mediaServicesReset, at: 1000, outputs: [
            timer(2001, .interruptedCallback(seq: 4)), .recovered(t: 1000), timer(6001, .recoveryWindow(interruptionSeq: 4)),
        ]) { $0.interruptionSeq = 4; $0.activatedSinceInterruption = true }
        XCTAssertEqual(store.state.predictedRoute, .receiver, "not interrupted: the route is predicted")
        store.fire(RouteTimer(due: 6001, kind: .rebuildWindow(resetSeq: 4)))        // no session.notRebuiltAfterReset
        // An activation a millisecond before is not in the window: the reset waits for its rebuild.
        var earlier = TestStore.started()
        earlier.skip(session, at: 999)                                                // seq 2
        earlier.send(.mediaServicesReset, at: 1000, outputs: [
            timer(6001, .rebuildWindow(resetSeq: 3)), timer(2001, .interruptedCallback(seq: 3)),
        ]) { $0.interruptedBy(3, .reset); $0.predictionSeq = 3; $0.callSession = nil }
        earlier.fire(RouteTimer(due: 6001, kind: .rebuildWindow(resetSeq: 3)),
                     outputs: [finding("session.notRebuiltAfterReset", .error, "I5", [3], t: 6001)])
    }

    func test_I5_callKitDidActivateIsTheRebuild_andAResetReplacesAnInterruption() {
        var store = TestStore.started()
        store.skip(.interruptionBegan(cause: .systemCall, wasSuspended: nil), at: 100)     // seq 2
        store.skip(.interruptionEnded(shouldResume: true), at: 200)
        store.skip(.interruptionBegan(cause: .systemCall, wasSuspended: nil), at: 300)     // seq 4
        // Already interrupted: the reset replaces the interruption, and no second callback is due (I14 a).
        store.send(.mediaServicesReset, at: 400, outputs: [.timer(RouteTimer(due: 5401, kind: .rebuildWindow(resetSeq: 5)))]) {
            $0.resetSeq = 5; $0.interruptionSeq = 5; $0.interruptionKind = .reset
        }
        store.send(.callKit(event: .didActivate, callId: nil), at: 900, outputs: [.recovered(t: 900)] + recoveryTimers(5, 6, at: 900)) {
            $0.interrupted = false; $0.interruptionKind = nil; $0.resetSeq = nil; $0.activatedSinceInterruption = true
            $0.predictionSeq = 6; $0.pendingConfirmation = nil; $0.callPathUp = true
        }
    }

    func test_I6_theRetryRecoversWhenTheEndNeverArrives() {
        var store = TestStore.started()
        store.skip(.callState(state: .incoming), at: 50)
        store.skip(.interruptionBegan(cause: .systemCall, wasSuspended: nil), at: 100)     // seq 3
        store.skip(.callState(state: .connected), at: 2000)
        store.skip(.setDefaultRoute(target: .speaker), at: 3000)         // seq 5: deferred/interrupted
        let retry = RouteTimer(due: 12000, kind: .recoveryRetry(interruptionSeq: 3, callStateSeq: 6))
        store.send(.callState(state: .disconnected), at: 10000, outputs: [.timer(retry)]) {
            $0.callState = .disconnected; $0.callEndedAt = 10000
        }
        store.fire(retry, outputs: [
            .recovered(t: 12000), timer(17001, .recoveryWindow(interruptionSeq: 3)), outcome(5, .applied, t: 12000, by: nil),
            timer(17001, .callPathWindow(seq: 6)), finding("interruption.endNeverArrived", .info, "I6", [6, 3], t: 12000),
        ]) {
            $0.interrupted = false; $0.interruptionKind = nil; $0.predictionSeq = 6; $0.pendingDefaultCall = nil
            $0.pendingConfirmation = .init(interruptionSeq: 3, triggerSeq: 6, recoveredAt: 12000)
        }
        store.send(.interruptionEnded(shouldResume: true), at: 13000)   // the late end changes nothing
    }

    func test_I6_aForegroundRecordRecoversWhenNoCallWasUp() {
        var store = TestStore.started()
        store.skip(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 100)           // seq 2
        store.send(.appState(state: .background), at: 200) { $0.foreground = false }
        store.send(.appState(state: .foreground), at: 5000, outputs: [.recovered(t: 5000)] + recoveryTimers(2, 4, at: 5000) + [
            finding("interruption.endNeverArrived", .info, "I6", [4, 2], t: 5000),
        ]) {
            $0.foreground = true; $0.interrupted = false; $0.interruptionKind = nil; $0.predictionSeq = 4
            $0.pendingConfirmation = .init(interruptionSeq: 2, triggerSeq: 4, recoveredAt: 5000)
        }
        // Every foreground record counts, even a repeated one.
        var repeated = TestStore.started()
        repeated.skip(.interruptionBegan(cause: .otherApp, wasSuspended: nil), at: 100)
        XCTAssertEqual(repeated.skip(.appState(state: .foreground), at: 150).first, .recovered(t: 150))
    }

    func test_I6_aForegroundRecordWaitsDmsAfterTheCall_andIdleSchedulesNoRetry() {
        var store = TestStore.started()
        store.skip(.interruptionBegan(cause: .systemCall, wasSuspended: nil), at: 100)     // seq 2
        store.send(.callState(state: .connected), at: 200) { $0.callState = .connected; $0.callUpDuringInterruption = true }
        store.send(.appState(state: .foreground), at: 300)              // a call is up: I2 does not hold
        store.send(.callState(state: .idle), at: 1000) { $0.callState = .idle; $0.callEndedAt = 1000 }
        store.send(.appState(state: .foreground), at: 2999)             // less than D after the call ended
        store.send(.appState(state: .foreground), at: 3000, outputs: [.recovered(t: 3000)] + recoveryTimers(2, 7, at: 3000) + [
            finding("interruption.endNeverArrived", .info, "I6", [7, 2], t: 3000),
        ]) {
            $0.interrupted = false; $0.interruptionKind = nil; $0.predictionSeq = 7
            $0.pendingConfirmation = .init(interruptionSeq: 2, triggerSeq: 7, recoveredAt: 3000)
        }
    }

    func test_I7_activationBeforeDidActivateRacesCallKit_oncePerWindow() {
        var store = TestStore.started()
        let timeout = RouteTimer(due: 5101, kind: .callKitWindow(actionSeq: 2))
        // I12: CallKit owns activation from the answer: no prediction until its didActivate.
        store.send(.callKit(event: .answer, callId: "A"), at: 100, outputs: [.timer(timeout)]) {
            $0.callKitWindows = [.init(actionSeq: 2, t: 100, answered: true)]; $0.callKitActionSeq = 2; $0.predictionSeq = 2
        }
        store.send(failed, at: 150) { $0.activationsRecorded = true }  // a failed activation races nothing
        store.send(session, at: 200, outputs: [finding("callkit.activatedBeforeDidActivate", .warning, "I7", [4, 2], t: 200)]) {
            $0.callKitWindows[0].raced = true; $0.callSessionUp(4, "voiceChat")
        }
        store.send(session, at: 250) { $0.callSessionUp(5, "voiceChat") }    // once per window
        store.send(.callKit(event: .didActivate, callId: "B"), at: 400) {   // callId not matched
            $0.callKitWindows = []; $0.callKitActionSeq = nil; $0.predictionSeq = 6
        }
        store.fire(timeout)
        store.send(session, at: 500) { $0.callSessionUp(7, "voiceChat") }    // after didActivate: fine
    }

    func test_I7_sameMs_aDidActivateLoggedBeforeTheAnswerInItsMsMeetsTheWindow() {
        var store = TestStore.started()
        store.send(.callKit(event: .didActivate, callId: nil), at: 2000) { $0.callPathUp = true }
        // CallKit has activated: no I7 window (no timer), no I12 stretch (the route is predicted).
        store.send(.callKit(event: .answer, callId: "A"), at: 2000)
        XCTAssertEqual(store.state.predictedRoute, .receiver)
        XCTAssertEqual(store.engine.obligations.answeredActivationAt, 2000, "it closed an answer's window: I13 reads the match window after it")
        store.send(session, at: 2005) { $0.activationsRecorded = true; $0.callSessionUp(4, "voiceChat") }   // no race
        store.fire(RouteTimer(due: 7001, kind: .callKitWindow(actionSeq: 3)))      // no callkit.noDidActivate
        // A didActivate a millisecond before is not in the window.
        var earlier = TestStore.started()
        earlier.send(.callKit(event: .didActivate, callId: nil), at: 1999) { $0.callPathUp = true }
        earlier.send(.callKit(event: .answer, callId: "A"), at: 2000, outputs: [timer(7001, .callKitWindow(actionSeq: 3))]) {
            $0.callKitWindows = [.init(actionSeq: 3, t: 2000, answered: true)]; $0.callKitActionSeq = 3; $0.predictionSeq = 3
        }
        earlier.fire(RouteTimer(due: 7001, kind: .callKitWindow(actionSeq: 3)),
                     outputs: [finding("callkit.noDidActivate", .error, "I7", [3], t: 7001)]) { $0.callKitWindows = [] }
    }

    func test_I7_noDidActivateWithinTheWindow_endClosesIt() {
        var store = TestStore.started(.smeeting)
        let first = RouteTimer(due: 5101, kind: .callKitWindow(actionSeq: 2))
        store.send(.callKit(event: .start, callId: nil), at: 100, outputs: [.timer(first)]) {
            $0.callKitWindows = [.init(actionSeq: 2, t: 100)]; $0.callKitActionSeq = 2; $0.predictionSeq = 2
        }
        // I12's window is not closed by the finding: CallKit still owns activation, nothing is predicted.
        store.fire(first, outputs: [finding("callkit.noDidActivate", .error, "I7", [2], t: 5101)]) { $0.callKitWindows = [] }
        store.send(session, at: 5200) {    // the I7 window closed with the finding: no race
            $0.activationsRecorded = true; $0.callSessionUp(3, "voiceChat")
        }
        let second = RouteTimer(due: 11001, kind: .callKitWindow(actionSeq: 4))
        store.send(.callKit(event: .answer, callId: "C"), at: 6000, outputs: [.timer(second)]) {
            $0.callKitWindows = [.init(actionSeq: 4, t: 6000, answered: true)]; $0.callKitActionSeq = 4
        }
        store.send(.callKit(event: .end, callId: "C"), at: 7000) {
            $0.callKitWindows = []; $0.callKitActionSeq = nil; $0.ownCallEnded = true; $0.predictionSeq = 5
        }
        store.fire(second)
    }

    func test_I7_didActivateCountsAsASuccessfulActivation() {
        var store = TestStore.started()
        store.skip(.interruptionBegan(cause: .systemCall, wasSuspended: nil), at: 100)
        store.skip(.interruptionEnded(shouldResume: true), at: 200)      // recovers; window open
        store.send(.callKit(event: .didActivate, callId: nil), at: 300) {   // the call path is up too (R17)
            $0.activatedSinceInterruption = true; $0.pendingConfirmation = nil; $0.callPathUp = true
        }
        store.send(.sdkRecovered, at: 310)                              // not recoveredWithoutActivation (I4)
        store.fire(RouteTimer(due: 5201, kind: .recoveryWindow(interruptionSeq: 2)))   // not notRecovered, nor I14 (b)
    }
}
