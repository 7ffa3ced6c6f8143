import RouteEngine
import TestSupport
import TraceModel
import XCTest

/// I1–I4: interruptions, system calls and recovery.
final class RouteEngineInterruptionTests: XCTestCase {
    /// What a recovery at `t` by `trigger` asks for: the recovery window (interruption.notRecovered, I14 b)
    /// and, the call path being down since the interruption began, a call-path window (R17). Both fall due
    /// at t + W + 1 (v3: the window's end is inclusive).
    private func recoveryTimers(_ interruptionSeq: Int, _ trigger: Int, at t: Int64, window: Int64 = 5000) -> [RouteOutput] {
        [timer(t + window + 1, .recoveryWindow(interruptionSeq: interruptionSeq)), timer(t + window + 1, .callPathWindow(seq: trigger))]
    }

    /// I14 (a): an interruption that begins at `t` makes the interrupted callback due within the match window.
    private func callbackDue(_ seq: Int, at t: Int64) -> RouteOutput {
        timer(t + 1001, .interruptedCallback(seq: seq))
    }

    func test_I1_interruptionWhileEngaged_ignoredWhenNot_endedByLeaving() {
        var idle = TestStore.started(engaged: false)
        idle.send(.interruptionBegan(cause: .systemCall, wasSuspended: nil), at: 5)
        XCTAssertFalse(idle.state.interrupted, "not engaged: nothing to interrupt")

        var store = TestStore.started()
        store.send(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 100, outputs: [callbackDue(2, at: 100)]) {
            $0.interruptedBy(2); $0.predictionSeq = 2
        }
        XCTAssertNil(store.state.predictedRoute)
        store.send(.interruptionEnded(shouldResume: true), at: 150, outputs: [.recovered(t: 150)] + recoveryTimers(2, 3, at: 150)) {
            $0.interrupted = false; $0.interruptionKind = nil; $0.predictionSeq = 3
            $0.pendingConfirmation = .init(interruptionSeq: 2, triggerSeq: 3, recoveredAt: 150)
        }
        store.send(.interruptionBegan(cause: .systemCall, wasSuspended: nil), at: 200, outputs: [callbackDue(4, at: 200)]) {
            $0.interruptedBy(4); $0.predictionSeq = 4
        }
        store.send(.callState(state: .connected), at: 210) { $0.callState = .connected; $0.callUpDuringInterruption = true }
        store.send(.interruptionEnded(shouldResume: nil), at: 300) { $0.recoveryPending = true }
        // No prediction before (interrupted) nor after (R13: not engaged), so the prediction's record stays.
        store.send(.leaveChannel, at: 400) {
            $0.engaged = false; $0.leftSeq = 7; $0.interrupted = false; $0.interruptionKind = nil; $0.recoveryPending = false
            $0.pendingConfirmation = nil
        }
        XCTAssertNil(store.state.predictedRoute, "not engaged: no prediction (R13)")
    }

    func test_I2_interruptionEndedAloneDoesNotRecoverWhileCallUpOrInBackground() {
        var store = TestStore.started()
        store.send(.interruptionBegan(cause: .systemCall, wasSuspended: nil), at: 100, outputs: [callbackDue(2, at: 100)]) {
            $0.interruptedBy(2); $0.predictionSeq = 2
        }
        store.send(.callState(state: .connected), at: 110) { $0.callState = .connected; $0.callUpDuringInterruption = true }
        store.send(.interruptionEnded(shouldResume: true), at: 300) { $0.recoveryPending = true }
        store.send(.appState(state: .background), at: 400) { $0.foreground = false }
        store.send(.appState(state: .foreground), at: 500) { $0.foreground = true }
        XCTAssertTrue(store.state.interrupted, "the system call is still up")
        store.send(.callState(state: .idle), at: 600) { $0.callState = .idle; $0.callEndedAt = 600 }
        XCTAssertTrue(store.state.interrupted, "idle is a condition, not an attempt")
        store.send(.appState(state: .background), at: 700) { $0.foreground = false }
        store.send(.appState(state: .foreground), at: 800, outputs: [.recovered(t: 800)] + recoveryTimers(2, 9, at: 800)) {
            $0.foreground = true; $0.interrupted = false; $0.interruptionKind = nil; $0.recoveryPending = false; $0.predictionSeq = 9
            $0.pendingConfirmation = .init(interruptionSeq: 2, triggerSeq: 9, recoveredAt: 800)
        }
    }

    func test_I3_noAttemptBeforeInterruptionEnded_whileCallUpOrJustEnded() {
        var store = TestStore.started()
        store.send(.callState(state: .incoming), at: 90) { $0.callState = .incoming }
        store.send(.interruptionBegan(cause: .systemCall, wasSuspended: nil), at: 100, outputs: [callbackDue(3, at: 100)]) {
            $0.interruptedBy(3); $0.predictionSeq = 3
            $0.callUpDuringInterruption = true
        }
        store.send(.appState(state: .foreground), at: 150)
        XCTAssertTrue(store.state.interrupted, "a system call is up: no recovery without the end")
        let retry = RouteTimer(due: 2200, kind: .recoveryRetry(interruptionSeq: 3, callStateSeq: 5))
        store.send(.callState(state: .disconnected), at: 200, outputs: [.timer(retry)]) {
            $0.callState = .disconnected; $0.callEndedAt = 200
        }
        store.send(.appState(state: .foreground), at: 2199)
        XCTAssertTrue(store.state.interrupted, "the call ended less than D ms before: I6 (b) does not apply")
        store.send(.interruptionEnded(shouldResume: true), at: 2199, outputs: [.recovered(t: 2199)] + recoveryTimers(3, 7, at: 2199)) {
            $0.interrupted = false; $0.interruptionKind = nil; $0.predictionSeq = 7; $0.recoveryPending = false
            $0.pendingConfirmation = .init(interruptionSeq: 3, triggerSeq: 7, recoveredAt: 2199)
        }
        store.fire(retry)
    }

    func test_I3_attemptAtInterruptionEnded() {
        var store = TestStore.started()
        store.send(.interruptionBegan(cause: .otherApp, wasSuspended: nil), at: 100, outputs: [callbackDue(2, at: 100)]) {
            $0.interruptedBy(2); $0.predictionSeq = 2
        }
        store.send(.interruptionEnded(shouldResume: true), at: 200, outputs: [.recovered(t: 200)] + recoveryTimers(2, 3, at: 200)) {
            $0.interrupted = false; $0.interruptionKind = nil; $0.predictionSeq = 3
            $0.pendingConfirmation = .init(interruptionSeq: 2, triggerSeq: 3, recoveredAt: 200)
        }
        XCTAssertEqual(store.state.predictedRoute, .receiver, "the route is re-applied per R8")
        store.send(.interruptionEnded(shouldResume: true), at: 250)
        store.send(.appState(state: .foreground), at: 260)
    }

    func test_I3_attemptAtForeground() {
        var store = TestStore.started()
        store.send(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 100, outputs: [callbackDue(2, at: 100)]) {
            $0.interruptedBy(2); $0.predictionSeq = 2
        }
        store.send(.appState(state: .background), at: 150) { $0.foreground = false }
        store.send(.interruptionEnded(shouldResume: nil), at: 200) { $0.recoveryPending = true }
        store.send(.appState(state: .foreground), at: 900, outputs: [.recovered(t: 900)] + recoveryTimers(2, 5, at: 900)) {
            $0.foreground = true; $0.interrupted = false; $0.interruptionKind = nil; $0.recoveryPending = false; $0.predictionSeq = 5
            $0.pendingConfirmation = .init(interruptionSeq: 2, triggerSeq: 5, recoveredAt: 900)
        }
    }

    func test_I3_attemptDmsAfterCallDisconnected_recoveredOnce() {
        var store = TestStore.started(options: .init(retryDelayMs: 1500, recoveryWindowMs: 4000))
        store.send(.interruptionBegan(cause: .systemCall, wasSuspended: nil), at: 100, outputs: [callbackDue(2, at: 100)]) {
            $0.interruptedBy(2); $0.predictionSeq = 2
        }
        store.send(.callState(state: .incoming), at: 110) { $0.callState = .incoming; $0.callUpDuringInterruption = true }
        store.send(.callState(state: .connected), at: 120) { $0.callState = .connected }
        store.send(.interruptionEnded(shouldResume: false), at: 130) { $0.recoveryPending = true }
        let retry = RouteTimer(due: 2500, kind: .recoveryRetry(interruptionSeq: 2, callStateSeq: 6))
        store.send(.callState(state: .disconnected), at: 1000, outputs: [.timer(retry)]) {
            $0.callState = .disconnected; $0.callEndedAt = 1000
        }
        XCTAssertTrue(store.state.interrupted, "the attempt is D ms later, not at the disconnect")
        store.fire(retry, outputs: [.recovered(t: 2500)] + recoveryTimers(2, 6, at: 2500, window: 4000)) {
            $0.interrupted = false; $0.interruptionKind = nil; $0.recoveryPending = false; $0.predictionSeq = 6
            $0.pendingConfirmation = .init(interruptionSeq: 2, triggerSeq: 6, recoveredAt: 2500)
        }
        store.fire(retry)
        store.send(.appState(state: .foreground), at: 3000)
    }

    func test_I3_retryFromAnEarlierInterruptionIsStale() {
        var store = TestStore.started()
        store.skip(.interruptionBegan(cause: .systemCall, wasSuspended: nil), at: 100)
        let outputs = store.skip(.callState(state: .disconnected), at: 200)
        store.skip(.interruptionEnded(shouldResume: true), at: 300)   // recovers at once: call already over
        store.skip(.interruptionBegan(cause: .systemCall, wasSuspended: nil), at: 400)  // seq 5
        store.skip(.interruptionEnded(shouldResume: true), at: 500)
        XCTAssertTrue(store.state.interrupted == false)
        store.skip(.interruptionBegan(cause: .systemCall, wasSuspended: nil), at: 600)
        store.skip(.callState(state: .connected), at: 610)
        store.skip(.interruptionEnded(shouldResume: true), at: 700)
        guard case .timer(let stale)? = outputs.first else { return XCTFail("expected a retry timer") }
        store.fire(stale)
        XCTAssertTrue(store.state.interrupted, "a timer of an earlier interruption never recovers a later one")
    }

    func test_I4_prematureReactivationThenProperRecovery() {
        var store = TestStore.started()
        store.send(.interruptionBegan(cause: .systemCall, wasSuspended: nil), at: 100, outputs: [callbackDue(2, at: 100)]) {
            $0.interruptedBy(2); $0.predictionSeq = 2
        }
        store.send(.callState(state: .connected), at: 110) { $0.callState = .connected; $0.callUpDuringInterruption = true }
        store.send(.interruptionEnded(shouldResume: true), at: 200) { $0.recoveryPending = true }
        store.send(.sessionActivated(.init(ok: false, error: "cannotInterruptOthers", category: "playAndRecord")), at: 201,
                   outputs: [finding("interruption.prematureReactivation", .warning, "I4", [5, 2], t: 201)]) {
            $0.activationsRecorded = true
        }
        let retry = RouteTimer(due: 2300, kind: .recoveryRetry(interruptionSeq: 2, callStateSeq: 6))
        store.send(.callState(state: .disconnected), at: 300, outputs: [.timer(retry)]) {
            $0.callState = .disconnected; $0.callEndedAt = 300
        }
        store.fire(retry, outputs: [.recovered(t: 2300)] + recoveryTimers(2, 6, at: 2300)) {
            $0.interrupted = false; $0.interruptionKind = nil; $0.recoveryPending = false; $0.predictionSeq = 6
            $0.pendingConfirmation = .init(interruptionSeq: 2, triggerSeq: 6, recoveredAt: 2300)
        }
        store.send(callSession(), at: 2310) {
            $0.activatedSinceInterruption = true; $0.pendingConfirmation = nil; $0.callSessionUp(7, "voiceChat")
        }
        store.send(.sdkRecovered, at: 2320)
    }

    func test_I4_recoveredCallbackWithoutActivationIsADefect() {
        var store = TestStore.started()
        store.send(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 100, outputs: [callbackDue(2, at: 100)]) {
            $0.interruptedBy(2); $0.predictionSeq = 2
        }
        store.send(.interruptionEnded(shouldResume: true), at: 200, outputs: [.recovered(t: 200)] + recoveryTimers(2, 3, at: 200)) {
            $0.interrupted = false; $0.interruptionKind = nil; $0.predictionSeq = 3
            $0.pendingConfirmation = .init(interruptionSeq: 2, triggerSeq: 3, recoveredAt: 200)
        }
        store.send(.sdkRecovered, at: 210,
                   outputs: [finding("interruption.recoveredWithoutActivation", .error, "I4", [4, 2], t: 210)]) {
            $0.pendingConfirmation = nil
        }
    }
}
