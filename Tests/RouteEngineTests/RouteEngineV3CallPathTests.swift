import Contract
import RouteEngine
import TestSupport
import TraceModel
import XCTest

/// Contract v3's call path and hang-up: R17 (the call path must come up), R18 (a leave must deactivate)
/// and R19 (engagement and the call session that is up).
final class RouteEngineV3CallPathTests: XCTestCase {
    private func joined(at t: Int64 = 1000) -> TestStore {
        var store = TestStore()
        store.skip(header())
        store.send(.joinChannel(channel: "c"), at: t, outputs: [timer(t + 5001, .callPathWindow(seq: 1))]) {
            $0.engaged = true; $0.engagedSeq = 1; $0.predictionSeq = 1
        }
        return store
    }

    func test_R17_theEngagementWindowIsMetByACallSessionAtItsInclusiveEnd() {
        var store = joined()
        store.send(failedActivation(), at: 1010) { $0.activationsRecorded = true }
        store.send(callSession(), at: 6000) { $0.callSessionUp(3, "voiceChat") }     // t0 + W: inside
        store.fire(RouteTimer(due: 6001, kind: .callPathWindow(seq: 1)))
        // A didActivate meets it too.
        var callKit = joined()
        callKit.skip(failedActivation(), at: 1010)
        callKit.send(.callKit(event: .didActivate, callId: nil), at: 2000) { $0.callPathUp = true }
        callKit.fire(RouteTimer(due: 6001, kind: .callPathWindow(seq: 1)))
    }

    func test_R17_anUnmetWindowFallsDueAtT0PlusWPlus1_namingTheLastFailedActivation() {
        var store = joined()
        store.send(failedActivation("cannotInterruptOthers"), at: 1010) { $0.activationsRecorded = true }
        store.send(failedActivation("insufficientPriority"), at: 6000)
        store.fire(RouteTimer(due: 6001, kind: .callPathWindow(seq: 1)),
                   outputs: [finding("session.callPathNotUp", .error, "R17", [1], t: 6001)])
        XCTAssertTrue(store.findings.last!.message.contains("insufficientPriority"), store.findings.last!.message)
        XCTAssertEqual(store.engine.obligations.callPathExplanation?.from, 1000,
                       "X3 (v4): from the window's opening, failed activations and all")
        // The activation one ms late comes after the timer of its ms: it does not withdraw the finding.
        store.send(callSession(), at: 6001) { $0.callSessionUp(4, "voiceChat") }
    }

    func test_R17_anotherCategoryIsNamed_andExplainsUntilTheNextPlayAndRecordActivation() {
        var store = joined()
        store.send(otherActivation("playback"), at: 1010) { $0.activationsRecorded = true }
        store.fire(RouteTimer(due: 6001, kind: .callPathWindow(seq: 1)),
                   outputs: [finding("session.callPathNotUp", .error, "R17", [1], t: 6001)])
        XCTAssertTrue(store.findings.last!.message.contains("playback"), store.findings.last!.message)
        XCTAssertEqual(store.engine.obligations.callPathExplanation?.seq, 1, "X3: until the path comes up")
        XCTAssertEqual(store.engine.obligations.callPathExplanation?.from, 1000, "X3 (v4): from the window's opening")
        store.send(callSession(), at: 7000) { $0.callSessionUp(3, "voiceChat") }
        XCTAssertNil(store.engine.obligations.callPathExplanation)
    }

    func test_R17_theGate_anActivationMustHaveBeenRecordedBeforeTheDueTime() {
        var none = joined()
        none.fire(RouteTimer(due: 6001, kind: .callPathWindow(seq: 1)))   // a recorder that captures no activation
        // The first activation exactly at the due time comes after the timer: the gate was not met then.
        var atDue = joined()
        atDue.fire(RouteTimer(due: 6001, kind: .callPathWindow(seq: 1)))
        atDue.send(failedActivation(), at: 6001) { $0.activationsRecorded = true }
    }

    func test_R17_noWindowWhenThePathIsUp_orWhileCallKitOwnsActivation() {
        var store = TestStore.started(engaged: false)
        store.send(callSession("videoChat"), at: 10) { $0.activationsRecorded = true; $0.callSessionUp(1, "videoChat") }
        store.send(.joinChannel(channel: "c"), at: 1000) { $0.engaged = true; $0.engagedSeq = 2; $0.predictionSeq = 2 }
        var callKit = TestStore.started(engaged: false)
        callKit.send(.callKit(event: .answer, callId: nil), at: 10, outputs: [timer(5011, .callKitWindow(actionSeq: 1))]) {
            $0.callKitWindows = [.init(actionSeq: 1, t: 10, answered: true)]; $0.callKitActionSeq = 1
        }
        // I7's callkit.noDidActivate covers a didActivate that never comes.
        callKit.send(.joinChannel(channel: "c"), at: 20) { $0.engaged = true; $0.engagedSeq = 2 }
    }

    func test_R17_anInterruptionOrAResetBeforeTheEngagementTakesThePathDown() {
        for down in [RecordBody.interruptionBegan(cause: .siri, wasSuspended: nil), .mediaServicesReset] {
            var store = TestStore.started(engaged: false)
            store.send(callSession(), at: 10) { $0.activationsRecorded = true; $0.callSessionUp(1, "voiceChat") }
            // A reset also ends the call session (R19); an interruption keeps it.
            store.send(down, at: 20) { $0.callPathUp = false; if case .mediaServicesReset = down { $0.callSession = nil } }
            store.send(.joinChannel(channel: "c"), at: 1000, outputs: [timer(6001, .callPathWindow(seq: 3))]) {
                $0.engaged = true; $0.engagedSeq = 3; $0.predictionSeq = 3
            }
        }
    }

    func test_R17_aLeaveOrTheBeginningOfAnInterruptionCancelsTheWindow() {
        var store = joined()
        store.skip(failedActivation(), at: 1010)                                       // the gate is met
        store.send(.interruptionBegan(cause: .otherApp, wasSuspended: nil), at: 2000, outputs: [timer(3001, .interruptedCallback(seq: 3))]) {
            $0.interruptedBy(3); $0.predictionSeq = 3
        }
        store.fire(RouteTimer(due: 6001, kind: .callPathWindow(seq: 1)))
        var left = joined()
        left.skip(failedActivation(), at: 1010)
        left.send(.leaveChannel, at: 2000) { $0.engaged = false; $0.leftSeq = 3; $0.predictionSeq = 3 }   // path down: no R18
        left.fire(RouteTimer(due: 6001, kind: .callPathWindow(seq: 1)))
    }

    func test_R17_afterARecovery_onlyAnActivationInAnotherCategoryIsReported() {
        var store = TestStore.started()
        store.skip(failedActivation(), at: 10)                                          // seq 2
        store.skip(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 100)      // seq 3
        store.skip(.interruptionEnded(shouldResume: true), at: 200)                     // seq 4: recovers
        store.skip(failedActivation(), at: 300)
        // Only failed activations: interruption.notRecovered reports it, not R17 (no double reporting).
        store.fire(RouteTimer(due: 5201, kind: .recoveryWindow(interruptionSeq: 3)),
                   outputs: [finding("interruption.notRecovered", .error, "I3", [4, 3], t: 5201)]) { $0.pendingConfirmation = nil }
        store.fire(RouteTimer(due: 5201, kind: .callPathWindow(seq: 4)))
        store.skip(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 6000)     // seq 6
        store.skip(.interruptionEnded(shouldResume: true), at: 6100)                    // seq 7: recovers
        store.send(otherActivation("soloAmbient"), at: 6200) { $0.activatedSinceInterruption = true; $0.pendingConfirmation = nil }
        store.fire(RouteTimer(due: 11101, kind: .recoveryWindow(interruptionSeq: 6)))   // met by the activation
        store.fire(RouteTimer(due: 11101, kind: .callPathWindow(seq: 7)),
                   outputs: [finding("session.callPathNotUp", .error, "R17", [7], t: 11101)])
        XCTAssertTrue(store.findings.last!.message.contains("soloAmbient"))
    }

    func test_R18_aLeaveWithThePathUpMustDeactivate_metByAnOkDeactivationOrDidDeactivate() {
        for met in [deactivation(), deactivation(ok: true), .callKit(event: .didDeactivate, callId: nil)] {
            var store = TestStore.started()
            store.skip(callSession(), at: 10)                                           // seq 2: the path is up
            store.skip(deactivation(ok: false, error: "isBusy"), at: 20)               // seq 3: the gate is met
            store.send(.leaveChannel, at: 5000, outputs: [timer(10001, .deactivationWindow(seq: 4))]) {
                $0.engaged = false; $0.leftSeq = 4; $0.predictionSeq = 4
            }
            // Not a hold (not engaged); the path goes down; a successful deactivation ends the call session.
            store.send(met, at: 5020) {
                $0.callPathUp = false
                if case .sessionDeactivated = met { $0.callSession = nil }
            }
            store.fire(RouteTimer(due: 10001, kind: .deactivationWindow(seq: 4)))
        }
    }

    func test_R18_anUnmetWindowNamesTheFailedDeactivation_andMissingNotifyOthersStaysIndependent() {
        var store = TestStore.started(.smeeting)
        store.skip(callSession(), at: 10)
        store.send(.exitMeeting, at: 5000, outputs: [timer(10001, .deactivationWindow(seq: 3))]) {
            $0.engaged = false; $0.leftSeq = 3; $0.predictionSeq = 3
        }
        store.send(deactivation(ok: false, error: "isBusy", notifyOthers: false), at: 5010,
                   outputs: [finding("session.missingNotifyOthers", .warning, nil, [4], t: 5010)])
        store.send(.sdkLog(level: "info", message: "tick"), at: 10000)                 // t0 + W: nothing yet
        store.fire(RouteTimer(due: 10001, kind: .deactivationWindow(seq: 3)),
                   outputs: [finding("session.notDeactivated", .warning, "R18", [3], t: 10001)])
        XCTAssertTrue(store.findings.last!.message.contains("isBusy"))
        // The late success comes after the timer of its ms and withdraws nothing.
        store.send(deactivation(), at: 10001) { $0.callSession = nil; $0.callPathUp = false }
    }

    func test_R18_theGate_andWhenALeaveOpensNoWindow() {
        // A trace that records no activation: the window opens, but no deactivation record ever came.
        var unrecorded = TestStore.started()
        unrecorded.send(.leaveChannel, at: 100, outputs: [timer(5101, .deactivationWindow(seq: 2))]) {
            $0.engaged = false; $0.leftSeq = 2; $0.predictionSeq = 2
        }
        unrecorded.fire(RouteTimer(due: 5101, kind: .deactivationWindow(seq: 2)))
        // Interrupted at the leave (read on the state before it): no window.
        var interrupted = TestStore.started()
        interrupted.skip(callSession(), at: 10)
        interrupted.skip(.interruptionBegan(cause: .systemCall, wasSuspended: nil), at: 100)   // seq 3
        interrupted.send(.leaveChannel, at: 200) { $0.engaged = false; $0.leftSeq = 4; $0.interrupted = false; $0.interruptionKind = nil }
        // The path down and activations recorded: no window.
        var down = TestStore.started()
        down.skip(failedActivation(), at: 10)
        down.send(.leaveChannel, at: 200) { $0.engaged = false; $0.leftSeq = 3; $0.predictionSeq = 3 }
    }

    func test_R18_theNextEngagementCancelsTheWindow() {
        var store = TestStore.started()
        store.skip(callSession(), at: 10)
        store.skip(deactivation(ok: false, error: "isBusy"), at: 20)                   // the gate is met
        store.send(.leaveChannel, at: 4000, outputs: [timer(9001, .deactivationWindow(seq: 4))]) {
            $0.engaged = false; $0.leftSeq = 4; $0.predictionSeq = 4
        }
        // A quick re-join keeps the session: an engagement, but the path is up, so no call-path window either.
        store.send(.joinChannel(channel: "c"), at: 4600) { $0.engaged = true; $0.engagedSeq = 5; $0.predictionSeq = 5 }
        store.fire(RouteTimer(due: 9001, kind: .deactivationWindow(seq: 4)))
    }

    func test_R19_aJoinWhileEngagedIsNoEngagement() {
        var store = TestStore()
        store.skip(header(micUsage: false))
        store.skip(.joinChannel(channel: "c"), at: 0)                                  // seq 1
        store.send(.setAudioModuleEnabled(enabled: false), at: 10) {
            $0.audioModuleEnabled = false; $0.audioModuleDisabledSeq = 2; $0.predictionSeq = 2
        }
        // No R9 reset, no R17 window, no V2 decision, no finding: the SDK keeps the call it has.
        store.send(.joinChannel(channel: "again"), at: 20)
        XCTAssertEqual(store.state.engagedSeq, 1)
        XCTAssertNil(store.state.predictedRoute)
    }

    func test_R19_theCallSessionThatIsUp_isKeptByInterruptionsLeavingAndDidDeactivate() {
        var store = TestStore.started(engaged: false)
        // A pre-call page's session is the one that is up at the join: R11's mode is its mode.
        store.send(callSession("videoChat", []), at: 10) { $0.activationsRecorded = true; $0.callSessionUp(1, "videoChat") }
        store.send(.joinChannel(channel: "c"), at: 100) { $0.engaged = true; $0.engagedSeq = 2; $0.predictionSeq = 2 }
        XCTAssertEqual(store.state.predictedRoute, .speaker)
        XCTAssertEqual(store.state.predictionSource, PredictionSource(rule: .R11, seq: 1))
        store.send(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 200, outputs: [timer(1201, .interruptedCallback(seq: 3))]) {
            $0.interruptedBy(3); $0.predictionSeq = 3
        }
        store.send(.interruptionEnded(shouldResume: true), at: 300, outputs: [
            .recovered(t: 300), timer(5301, .recoveryWindow(interruptionSeq: 3)), timer(5301, .callPathWindow(seq: 4)),
        ]) { $0.recoveredAt(4); $0.pendingConfirmation = .init(interruptionSeq: 3, triggerSeq: 4, recoveredAt: 300) }
        XCTAssertEqual(store.state.predictedRoute, .speaker, "the interruption kept the call session")
        store.send(.leaveChannel, at: 400) { $0.engaged = false; $0.leftSeq = 5; $0.predictionSeq = 5; $0.pendingConfirmation = nil }
        store.send(.callKit(event: .didDeactivate, callId: nil), at: 500)
        store.send(deactivation(ok: false, error: "isBusy"), at: 600)
        XCTAssertEqual(store.state.callSession?.seq, 1, "leaving, didDeactivate and a failed deactivation keep it")
        store.send(.joinChannel(channel: "c"), at: 700, outputs: [timer(5701, .callPathWindow(seq: 8))]) {
            $0.engaged = true; $0.engagedSeq = 8; $0.predictionSeq = 8
        }
        XCTAssertEqual(store.state.predictedRoute, .speaker, "still videoChat: no R11 reset at the engagement")
    }

    func test_R19_aSuccessfulDeactivationAnotherCategoryOrAResetEndsTheCallSession() {
        for end in [deactivation(), otherActivation("ambient"), .mediaServicesReset] {
            var store = TestStore.started()
            store.send(callSession("videoChat"), at: 10) { $0.activationsRecorded = true; $0.callSessionUp(2, "videoChat"); $0.predictionSeq = 2 }
            store.skip(end, at: 20)
            XCTAssertNil(store.state.callSession, "\(end)")
            XCTAssertNil(store.state.videoChatSeq)
        }
    }

    func test_R17_activationsLoggedBeforeTheOpeningRecordOfTheirMs_areInTheWindow() {
        // An activation in another category logged before the end that recovers, in its ms: it came in the
        // recovery's window, so the window (unmet by any playAndRecord activation) raises callPathNotUp, and
        // the recovery has had its activation (no interruption.notRecovered).
        let (_, findings) = replayed([
            (100, .joinChannel(channel: "c")),
            (110, callSession()),
            (2000, .interruptionBegan(cause: .otherApp, wasSuspended: nil)),                // 3
            (3000, otherActivation("playback")),                                            // 4
            (3000, .interruptionEnded(shouldResume: true)),                                 // 5: recovers
            (9000, .sdkLog(level: "debug", message: "tick")),
        ])
        XCTAssertEqual(raised(.sessionCallPathNotUp, in: findings), ["[5]@8001"])
        XCTAssertEqual(raised(.interruptionNotRecovered, in: findings), [])
        XCTAssertTrue(findings.first { $0.code == .sessionCallPathNotUp }?.message.contains("playback") ?? false)
        // A failed activation logged before the join of its ms is the window's last failed one; a call session
        // logged before it, and a deactivation between, meet the window at once.
        let (_, failed) = replayed([(100, failedActivation("insufficientPriority")), (100, .joinChannel(channel: "c")),
                                    (6000, .sdkLog(level: "debug", message: "tick"))])
        XCTAssertEqual(raised(.sessionCallPathNotUp, in: failed), ["[2]@5101"])
        XCTAssertTrue(failed.first { $0.code == .sessionCallPathNotUp }?.message.contains("insufficientPriority") ?? false)
        let (_, met) = replayed([(100, callSession()), (100, deactivation()), (100, .joinChannel(channel: "c")),
                                 (6000, .sdkLog(level: "debug", message: "tick"))])
        XCTAssertEqual(raised(.sessionCallPathNotUp, in: met), [])
    }

    func test_R17_anInterruptionBeganIgnoredDuringAHold_stillTakesThePathDown() {
        // During a CallKit hold the SDK activates (no system call up: not premature), so the path is up; an
        // os.interruptionBegan then changes no interruption (the hold goes on) but iOS deactivated the
        // session: the path is down, and the next engagement opens a window that nothing meets.
        let (engine, findings) = replayed([
            (100, .joinChannel(channel: "c")),
            (110, callSession()),
            (2000, .callKit(event: .didDeactivate, callId: nil)),                           // 3: hold
            (3000, callSession()),                                                          // 4: path up
            (3500, .interruptionBegan(cause: .otherApp, wasSuspended: nil)),                // 5: ignored, path down
            (4000, .leaveChannel),
            (5000, .joinChannel(channel: "c")),                                             // 7: a window
            (11000, .sdkLog(level: "debug", message: "tick")),
        ])
        XCTAssertFalse(engine.state.callPathUp)
        XCTAssertEqual(raised(.sessionCallPathNotUp, in: findings), ["[7]@10001"])
    }

    func test_R18_aDeactivationLoggedBeforeTheLeaveOfItsMs_meetsTheWindow() {
        // A trace with no activation recorded: the leave opens a deactivation window; the deactivation of its
        // ms logged just before it is in the window and meets it. A failed one there is named instead.
        let (_, findings) = replayed([
            (100, .joinChannel(channel: "c")),
            (5000, deactivation(ok: true)),
            (5000, .leaveChannel),
            (11000, .sdkLog(level: "debug", message: "tick")),
        ])
        XCTAssertEqual(raised(.sessionNotDeactivated, in: findings), [])
        let (_, failed) = replayed([
            (100, .joinChannel(channel: "c")),
            (5000, deactivation(ok: false, error: "isBusy")),
            (5000, .leaveChannel),                                                          // 3
            (11000, .sdkLog(level: "debug", message: "tick")),
        ])
        XCTAssertEqual(raised(.sessionNotDeactivated, in: failed), ["[3]@10001"])
        XCTAssertTrue(failed.first { $0.code == .sessionNotDeactivated }?.message.contains("isBusy") ?? false)
    }
}
