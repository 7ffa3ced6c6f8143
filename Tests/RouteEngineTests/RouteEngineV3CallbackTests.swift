import Contract
import RouteEngine
import TestSupport
import TraceModel
import XCTest

/// I14: the SDK's interrupted and recovered callbacks, gated on their kinds. The replay takes every `sdk.*`
/// record after the other records of its ms, so the records here come in that order.
final class RouteEngineV3CallbackTests: XCTestCase {
    private func began(_ store: inout TestStore, _ seq: Int, at t: Int64) {
        store.send(.interruptionBegan(cause: .siri, wasSuspended: nil), at: t, outputs: [timer(t + 1001, .interruptedCallback(seq: seq))]) {
            $0.interruptedBy(seq); $0.predictionSeq = seq
        }
    }

    private func recovered(_ store: inout TestStore, _ interruption: Int, _ seq: Int, at t: Int64) {
        store.send(.interruptionEnded(shouldResume: true), at: t, outputs: [
            .recovered(t: t), timer(t + 5001, .recoveryWindow(interruptionSeq: interruption)), timer(t + 5001, .callPathWindow(seq: seq)),
        ]) { $0.recoveredAt(seq); $0.pendingConfirmation = .init(interruptionSeq: interruption, triggerSeq: seq, recoveredAt: t) }
    }

    func test_I14a_theInterruptedCallbackIsDueWithinTheMatchWindow_itsEndInclusive() {
        var store = TestStore.started()
        began(&store, 2, at: 3000)
        store.send(.sdkInterrupted, at: 4000)                                             // t0 + W: inside
        store.fire(RouteTimer(due: 4001, kind: .interruptedCallback(seq: 2)))
        recovered(&store, 2, 4, at: 5000)
        began(&store, 5, at: 8000)
        store.fire(RouteTimer(due: 9001, kind: .interruptedCallback(seq: 5)),
                   outputs: [finding("interruption.noInterruptedCallback", .warning, "I14", [5], t: 9001)])
        store.send(.sdkInterrupted, at: 9001)                                             // too late: satisfies nothing
    }

    func test_I14a_eachCallbackSatisfiesTheOldestDueOne() {
        var store = TestStore.started(.smeeting)
        store.skip(.sdkInterrupted, at: 10)                                              // the kind is in the trace
        began(&store, 3, at: 1000)
        recovered(&store, 3, 4, at: 1100)
        began(&store, 5, at: 1200)
        store.send(.sdkInterrupted, at: 1300)                                             // the oldest: seq 3's
        store.fire(RouteTimer(due: 2001, kind: .interruptedCallback(seq: 3)))
        store.fire(RouteTimer(due: 2201, kind: .interruptedCallback(seq: 5)),
                   outputs: [finding("interruption.noInterruptedCallback", .warning, "I14", [5], t: 2201)])
    }

    func test_I14a_heldUntilTheTracesFirstCallback_andRaisedThenWithItsTime() {
        var store = TestStore.started()
        began(&store, 2, at: 1000)
        store.fire(RouteTimer(due: 2001, kind: .interruptedCallback(seq: 2)))           // no sdk.interrupted yet: held
        recovered(&store, 2, 3, at: 2500)
        began(&store, 4, at: 3000)
        store.send(.sdkInterrupted, at: 3500, outputs: [finding("interruption.noInterruptedCallback", .warning, "I14", [2], t: 3500)])
        store.fire(RouteTimer(due: 4001, kind: .interruptedCallback(seq: 4)))           // satisfied
        // A trace that never records the kind raises nothing.
        var never = TestStore.started()
        began(&never, 2, at: 1000)
        never.fire(RouteTimer(due: 2001, kind: .interruptedCallback(seq: 2)))
        never.finish()
    }

    func test_I14b_anActivationButNoRecoveredCallbackInTheRecoveryWindow() {
        var store = TestStore.started()
        store.skip(.sdkRecovered, at: 5)                                                 // the kind is in the trace
        began(&store, 3, at: 100)
        recovered(&store, 3, 4, at: 200)
        store.send(callSession(), at: 300) {
            $0.activationsRecorded = true; $0.activatedSinceInterruption = true; $0.pendingConfirmation = nil
            $0.callSessionUp(5, "voiceChat")
        }
        store.fire(RouteTimer(due: 5201, kind: .recoveryWindow(interruptionSeq: 3)),
                   outputs: [finding("interruption.noRecoveredCallback", .warning, "I14", [4, 3], t: 5201)])
        // With the callback at the window's end: met.
        var met = TestStore.started()
        met.skip(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 100)          // seq 2
        met.skip(.interruptionEnded(shouldResume: true), at: 200)                         // seq 3
        met.skip(callSession(), at: 300)
        met.send(.sdkRecovered, at: 5200)
        met.fire(RouteTimer(due: 5201, kind: .recoveryWindow(interruptionSeq: 2)))
    }

    func test_I14b_heldUntilTheFirstRecoveredCallback_neitherIsOnlyNotRecovered_andALeaveCancelsIt() {
        var store = TestStore.started()
        store.skip(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 100)        // seq 2
        store.skip(.interruptionEnded(shouldResume: true), at: 200)                       // seq 3
        store.skip(callSession(), at: 300)
        store.fire(RouteTimer(due: 5201, kind: .recoveryWindow(interruptionSeq: 2)))    // held: no sdk.recovered yet
        store.skip(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 6000)       // seq 5
        store.skip(.interruptionEnded(shouldResume: true), at: 6100)                      // seq 6
        store.skip(callSession(), at: 6200)
        store.send(.sdkRecovered, at: 6300, outputs: [finding("interruption.noRecoveredCallback", .warning, "I14", [3, 2], t: 6300)])
        // Neither an activation nor the callback: interruption.notRecovered only.
        var neither = TestStore.started()
        neither.skip(.sdkRecovered, at: 5)
        neither.skip(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 100)      // seq 3
        neither.skip(.interruptionEnded(shouldResume: true), at: 200)                     // seq 4
        neither.fire(RouteTimer(due: 5201, kind: .recoveryWindow(interruptionSeq: 3)),
                     outputs: [finding("interruption.notRecovered", .error, "I3", [4, 3], t: 5201)]) { $0.pendingConfirmation = nil }
        var left = TestStore.started()
        left.skip(.sdkRecovered, at: 5)
        left.skip(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 100)
        left.skip(.interruptionEnded(shouldResume: true), at: 200)
        left.skip(callSession(), at: 300)
        left.skip(.leaveChannel, at: 400)
        left.fire(RouteTimer(due: 5201, kind: .recoveryWindow(interruptionSeq: 3)))
    }

    func test_I14b_afterAReset_butNotAfterAStaleInterruptionNorAHold() {
        var reset = TestStore.started()
        reset.skip(.sdkRecovered, at: 5)
        reset.skip(callSession(), at: 10)                                                 // seq 3
        reset.skip(.mediaServicesReset, at: 100)                                          // seq 4
        reset.skip(callSession(), at: 200)                                                // seq 5: the rebuild counts in its window
        reset.fire(RouteTimer(due: 5201, kind: .recoveryWindow(interruptionSeq: 4)),
                   outputs: [finding("interruption.noRecoveredCallback", .warning, "I14", [5, 4], t: 5201)])
        var stale = TestStore.started()
        stale.skip(.sdkRecovered, at: 5)
        stale.skip(.interruptionBegan(cause: .appWasSuspended, wasSuspended: nil), at: 100)   // seq 3: recovers there
        stale.skip(callSession(), at: 200)
        stale.fire(RouteTimer(due: 5101, kind: .recoveryWindow(interruptionSeq: 3)))
        var hold = TestStore.started()
        hold.skip(.sdkRecovered, at: 5)
        hold.skip(.callKit(event: .didDeactivate, callId: nil), at: 100)
        XCTAssertEqual(hold.skip(.callKit(event: .didActivate, callId: nil), at: 200), [.recovered(t: 200)], "no window for a hold")
    }

    func test_I14c_aSecondRecoveredCallbackBeforeTheNextInterruptionIsADuplicate() {
        var store = TestStore.started()
        began(&store, 2, at: 100)
        recovered(&store, 2, 3, at: 200)
        store.skip(callSession(), at: 300)                                                // seq 4
        store.send(.sdkRecovered, at: 400)
        store.send(.sdkRecovered, at: 500, outputs: [finding("interruption.duplicateRecovered", .warning, "I14", [6], t: 500)])
        store.send(.sdkRecovered, at: 600)                                                // once per recovery
        // After the next interruption begins, a callback is no duplicate of the last recovery's.
        began(&store, 8, at: 700)
        store.send(.sdkRecovered, at: 800, outputs: [finding("interruption.recoveredWithoutActivation", .error, "I4", [9, 8], t: 800)])
    }

    func test_I14c_notAfterAHold() {
        // No SDK callback is checked for a hold (I11), the duplicate included.
        var store = TestStore.started()
        store.skip(.callKit(event: .didDeactivate, callId: nil), at: 100)
        store.skip(.callKit(event: .didActivate, callId: nil), at: 200)
        store.send(.sdkRecovered, at: 300)
        store.send(.sdkRecovered, at: 400)
    }

    func test_I14c_appliesAfterAStaleInterruption_withI4() {
        var store = TestStore.started()
        store.skip(.interruptionBegan(cause: nil, wasSuspended: true), at: 100)          // seq 2: recovers there
        store.send(.sdkRecovered, at: 200, outputs: [finding("interruption.recoveredWithoutActivation", .error, "I4", [3, 2], t: 200)]) {
            $0.pendingConfirmation = nil
        }
        store.send(.sdkRecovered, at: 300, outputs: [
            finding("interruption.duplicateRecovered", .warning, "I14", [4], t: 300),
            finding("interruption.recoveredWithoutActivation", .error, "I4", [4, 2], t: 300),
        ])
    }

    func test_I14b_aLaterInterruptionAndRecoveryDoNotCancelTheRecoveryWindow() {
        // The first recovery (seq 4) reactivates but gets no recovered callback in its window, [2000, 7000];
        // a second interruption and recovery inside that window do not cancel it (only a leave or exit does):
        // the callback at 7500 is the second recovery's, and the first falls due at 7001.
        let (_, findings) = replayed([
            (100, .joinChannel(channel: "c")),
            (110, callSession()),
            (1000, .interruptionBegan(cause: .siri, wasSuspended: nil)),                    // 3
            (2000, .interruptionEnded(shouldResume: true)),                                 // 4: recovers
            (2100, callSession()),                                                          // 5: reactivates
            (3000, .interruptionBegan(cause: .otherApp, wasSuspended: nil)),                // 6
            (4000, .interruptionEnded(shouldResume: true)),                                 // 7: recovers
            (4100, callSession()),
            (7500, .sdkRecovered),
            (7500, .sdkInterrupted),
            (10000, .leaveChannel),
        ])
        XCTAssertEqual(raised(.interruptionNoRecoveredCallback, in: findings), ["[4, 3]@7500"],
                       "due at 7001, held until the trace's first sdk.recovered and raised with its time")
        XCTAssertEqual(raised(.interruptionNotRecovered, in: findings), [])
    }

    func test_I14_callbacksLoggedBeforeTheRecordOfTheirMs_areInItsWindows() {
        // The replay keeps an sdk.* record before the other records of its ms only when an expectation sits
        // between them; the window the later record opens holds it all the same (same ms, v3): (a) the
        // interrupted callback is met, (b) the recovery that follows its recovered callback in the ms has it.
        let expectation = RecordBody.expect(Expectation(.interrupted(false)))
        var records: [(Int64, RecordBody)] = [
            (100, .joinChannel(channel: "c")),
            (110, callSession()),
            (2000, .sdkInterrupted),
            (2000, expectation),
            (2000, .interruptionBegan(cause: .siri, wasSuspended: nil)),                    // 5: (a) met at once
            (3000, .sdkRecovered),
            (3000, expectation),
            (3000, .interruptionEnded(shouldResume: true)),                                 // 8: recovers
            (3010, callSession()),                                                          // 9
            (9000, .leaveChannel),
        ]
        let (_, findings) = replayed(records)
        XCTAssertEqual(raised(.interruptionNoInterruptedCallback, in: findings), [])
        XCTAssertEqual(raised(.interruptionNoRecoveredCallback, in: findings), [])
        XCTAssertEqual(raised(.interruptionDuplicateRecovered, in: findings), [])
        // (c): that callback is the recovery's first, so one more is a duplicate.
        records.insert((3100, .sdkRecovered), at: 9)                                        // 10
        XCTAssertEqual(raised(.interruptionDuplicateRecovered, in: replayed(records).findings), ["[10]@3100"])
    }
}
