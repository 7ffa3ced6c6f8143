import Contract
import RouteEngine
import TestSupport
import TraceModel
import XCTest

/// R15: iOS may flush the temporary route at a device change or at the recovery from an interruption; the
/// first reading that settles (shown for longer than the tolerance) decides.
final class RouteEngineV3FlushTests: XCTestCase {
    private func settle(_ due: Int64, _ openedBy: Int, _ reading: Int) -> RouteTimer {
        RouteTimer(due: due, kind: .flushSettle(openedBy: openedBy, readingSeq: reading))
    }

    /// Engaged with a call session (seq 2), the speaker override (seq 3), a headset plugged in (seq 4) and
    /// read (seq 5), then unplugged at t=5000 (seq 6): a flush window is open with O speaker and N receiver.
    private func unplugged() -> TestStore {
        var store = TestStore.started()
        store.skip(callSession(), at: 10)
        store.skip(.setRoute(target: .speaker, api: nil), at: 1000)
        store.skip(.deviceConnected(id: "hs", kind: .headset, name: nil, port: "Headphones"), at: 2000)
        store.skip(reading(.headset, .newDeviceAvailable), at: 2010)
        store.skip(.deviceDisconnected(id: "hs"), at: 5000)
        return store
    }

    func test_R15_anUnplugOpensAWindow_aSettledReadingOfNFlushesTheOverride() {
        var store = TestStore.started()
        store.skip(callSession(), at: 10)
        store.send(.setRoute(target: .speaker, api: nil), at: 1000, outputs: [verdict(3, "api.setRoute", .applied, t: 1000)]) {
            $0.override = .speaker; $0.overrideSeq = 3; $0.predictionSeq = 3
        }
        store.send(.deviceConnected(id: "hs", kind: .headset, name: nil, port: "Headphones"), at: 2000) {
            $0.devices = [.init(id: "hs", kind: .headset, seq: 4)]; $0.predictionSeq = 4
        }
        // O = N = headset: the device's reading settles, but there is nothing to decide.
        store.send(reading(.headset, .newDeviceAvailable), at: 2010, outputs: [.timer(settle(2511, 4, 5))]) {
            $0.lastReading = .init(route: .headset, t: 2010, seq: 5)
        }
        store.fire(settle(2511, 4, 5))
        XCTAssertEqual(store.state.override, .speaker, "a plug-in whose device plays does not flush the choice")
        store.send(.deviceDisconnected(id: "hs"), at: 5000) { $0.devices = []; $0.predictionSeq = 6 }
        store.send(reading(.receiver, .oldDeviceUnavailable), at: 5020, outputs: [.timer(settle(5521, 6, 7))]) {
            $0.lastReading = .init(route: .receiver, t: 5020, seq: 7)
        }
        XCTAssertEqual(store.engine.toleratedRoute, .receiver, "a reading that shows N is no mismatch while the window is open")
        store.send(.sdkLog(level: "info", message: "tick"), at: 5520)
        XCTAssertEqual(store.state.override, .speaker, "the override stays in the state until the flush")
        // Shown for longer than the tolerance: flushed; the call's outcome is not changed (no outcome output).
        store.fire(settle(5521, 6, 7), outputs: [finding("route.overrideFlushed", .info, "R15", [7, 6, 3], t: 5521)]) {
            $0.override = nil; $0.overrideSeq = nil; $0.predictionSeq = 7
        }
        XCTAssertEqual(store.state.predictedRoute, .receiver, "R8 follows the default")
        XCTAssertEqual(store.state.predictionSource, PredictionSource(rule: .R2, seq: nil))
        XCTAssertEqual(store.engine.toleratedRoute, .speaker, "until the window closes, the flushed override's route")
    }

    func test_R15_aReadingReplacedAtExactlyTheTolerance_neverSettled_OSettlesAndTheOverrideStays() {
        var store = unplugged()
        store.send(reading(.receiver, .oldDeviceUnavailable), at: 5010, outputs: [.timer(settle(5511, 6, 7))]) {
            $0.lastReading = .init(route: .receiver, t: 5010, seq: 7)
        }
        store.send(reading(.speaker, .override), at: 5510, outputs: [.timer(settle(6011, 6, 8))]) {
            $0.lastReading = .init(route: .speaker, t: 5510, seq: 8)
        }
        store.fire(settle(5511, 6, 7))                      // shown 500 ms: not longer than the tolerance
        store.fire(settle(6011, 6, 8))                      // O: the override stays and the window closes
        XCTAssertNil(store.engine.obligations.flush)
        store.send(reading(.receiver, .routeConfigurationChange), at: 7000) { $0.lastReading = .init(route: .receiver, t: 7000, seq: 9) }
        XCTAssertEqual(store.state.override, .speaker)
    }

    func test_R15_aLateFallbackToTheFlushedRouteRestoresIt_withoutR12AndWithoutAFinding() {
        var store = unplugged()
        store.skip(reading(.receiver, .oldDeviceUnavailable), at: 5010)                   // seq 7
        store.fire(settle(5511, 6, 7), outputs: [finding("route.overrideFlushed", .info, "R15", [7, 6, 3], t: 5511)]) {
            $0.override = nil; $0.overrideSeq = nil; $0.predictionSeq = 7
        }
        // Not bounded in time, and no R12 although nothing accounts for an override change 4 s after the unplug.
        store.send(reading(.speaker, .override), at: 9000, outputs: [.timer(settle(9501, 6, 8))]) {
            $0.lastReading = .init(route: .speaker, t: 9000, seq: 8)
        }
        store.fire(settle(9501, 6, 8)) { $0.override = .speaker; $0.overrideSeq = 3; $0.predictionSeq = 8 }
        XCTAssertNil(store.engine.obligations.flush, "restored: the window closes")
        XCTAssertEqual(store.state.predictionSource, PredictionSource(rule: .R2, seq: 3))
    }

    func test_R15_afterAFlushADeviceChangeIsNoOpeningEvent_theWindowStaysOpenAndALateFallbackStillRestores() {
        var store = unplugged()
        store.skip(reading(.receiver, .oldDeviceUnavailable), at: 5010)                   // seq 7
        store.fire(settle(5511, 6, 7), outputs: [finding("route.overrideFlushed", .info, "R15", [7, 6, 3], t: 5511)]) {
            $0.override = nil; $0.overrideSeq = nil; $0.predictionSeq = 7
        }
        // No override is set: the connect opens no window, so it closes none.
        store.send(.deviceConnected(id: "bt", kind: .bluetooth, name: nil, port: "BluetoothHFP"), at: 7000) {
            $0.devices = [.init(id: "bt", kind: .bluetooth, seq: 8)]; $0.predictionSeq = 8
        }
        XCTAssertEqual(store.engine.obligations.flush?.openedBy, 6, "the window is still the unplug's")
        // While the car kit has the route the flushed override's route is N: its reading settles and decides nothing.
        store.send(reading(.bluetooth, .newDeviceAvailable), at: 7010, outputs: [.timer(settle(7511, 6, 9))]) {
            $0.lastReading = .init(route: .bluetooth, t: 7010, seq: 9)
        }
        store.fire(settle(7511, 6, 9))
        XCTAssertNotNil(store.engine.obligations.flush?.flushed, "not restored by a reading of the device's own route")
        store.send(.deviceDisconnected(id: "bt"), at: 9000) { $0.devices = []; $0.predictionSeq = 10 }
        XCTAssertEqual(store.engine.toleratedRoute, .speaker, "the SDK may still fall back to the flushed override")
        store.send(reading(.speaker, .oldDeviceUnavailable), at: 9010, outputs: [.timer(settle(9511, 6, 11))]) {
            $0.lastReading = .init(route: .speaker, t: 9010, seq: 11)
        }
        store.fire(settle(9511, 6, 11)) { $0.override = .speaker; $0.overrideSeq = 3; $0.predictionSeq = 11 }
        XCTAssertNil(store.engine.obligations.flush, "restored: the window closes")
    }

    func test_R15_aRouteCallClosesTheWindow_flushingFirstWhenTheLatestReadingShowsN() {
        var store = unplugged()
        store.skip(reading(.receiver, .oldDeviceUnavailable), at: 5010)                   // seq 7: not settled yet
        // Flushed before the call is applied: the tap then changes the override from none, so it is applied.
        store.send(.setRoute(target: .speaker, api: nil), at: 5300, outputs: [
            finding("route.overrideFlushed", .info, "R15", [7, 6, 3], t: 5300), verdict(8, "api.setRoute", .applied, t: 5300),
        ]) { $0.overrideSeq = 8; $0.predictionSeq = 8 }
        store.fire(settle(5511, 6, 7))                                                    // the window closed
        // With the latest reading showing O, a route call closes it with nothing flushed.
        var kept = unplugged()
        kept.skip(reading(.speaker, .override), at: 5010)
        kept.send(.setDefaultRoute(target: .speaker), at: 5300, outputs: [
            verdict(8, "api.setDefaultRoute", .ineffective, .overrideActive, causeSeq: 3, t: 5300),
            finding("route.ineffective", .warning, "V1", [8, 3], t: 5300, call: 8),
        ]) { $0.defaultTarget = .speaker; $0.defaultSeq = 8 }
        XCTAssertNil(kept.engine.obligations.flush)
    }

    func test_R15_anInterruptionOrTheNextDeviceChangeClosesTheWindow_flushingWhenTheLatestShowsN() {
        var interrupted = unplugged()
        interrupted.skip(reading(.receiver, .oldDeviceUnavailable), at: 5010)
        interrupted.send(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 5100, outputs: [
            finding("route.overrideFlushed", .info, "R15", [7, 6, 3], t: 5100), timer(6101, .interruptedCallback(seq: 8)),
        ]) { $0.override = nil; $0.overrideSeq = nil; $0.interruptedBy(8); $0.predictionSeq = 8 }
        // The next opening event flushes, then opens its own window (the override is gone: none opens).
        var replugged = unplugged()
        replugged.skip(reading(.receiver, .oldDeviceUnavailable), at: 5010)
        replugged.send(.deviceConnected(id: "bt", kind: .bluetooth, name: nil, port: nil), at: 5100,
                       outputs: [finding("route.overrideFlushed", .info, "R15", [7, 6, 3], t: 5100)]) {
            $0.override = nil; $0.overrideSeq = nil; $0.devices = [.init(id: "bt", kind: .bluetooth, seq: 8)]; $0.predictionSeq = 8
        }
        XCTAssertNil(replugged.engine.obligations.flush)
        // A leave closes it without a finding: the leave drops the override anyway (R6).
        var left = unplugged()
        left.skip(reading(.receiver, .oldDeviceUnavailable), at: 5010)
        left.send(.leaveChannel, at: 5100, outputs: [timer(10101, .deactivationWindow(seq: 8))]) {
            $0.engaged = false; $0.leftSeq = 8; $0.override = nil; $0.overrideSeq = nil; $0.predictionSeq = 8
        }
    }

    func test_R15_unknownReadingsNeitherCountNorSettleNorInterrupt() {
        var store = unplugged()
        store.send(reading(.unknown, .oldDeviceUnavailable), at: 5005) { $0.lastReading = .init(route: .unknown, t: 5005, seq: 7) }
        store.send(reading(.receiver, .oldDeviceUnavailable), at: 5010, outputs: [.timer(settle(5511, 6, 8))]) {
            $0.lastReading = .init(route: .receiver, t: 5010, seq: 8)
        }
        store.send(.routeSnapshot(route: .unknown, ports: nil), at: 5300) { $0.lastReading = .init(route: .unknown, t: 5300, seq: 9) }
        store.fire(settle(5511, 6, 8), outputs: [finding("route.overrideFlushed", .info, "R15", [8, 6, 3], t: 5511)]) {
            $0.override = nil; $0.overrideSeq = nil; $0.predictionSeq = 8
        }
    }

    func test_R15_aReadingOfTheOpeningMsCountsWhateverItsPlace() {
        var store = TestStore.started()
        store.skip(callSession(), at: 10)
        store.skip(.setRoute(target: .speaker, api: nil), at: 1000)                        // seq 3
        store.skip(.deviceConnected(id: "hs", kind: .headset, name: nil, port: nil), at: 2000)   // seq 4: O = N
        // iOS's change is logged before the unplug of its ms. It counts in the plug-in's window too, where
        // it decides nothing (O = N), and in the unplug's, opened at the same ms.
        store.send(reading(.receiver, .oldDeviceUnavailable), at: 6000, outputs: [.timer(settle(6501, 4, 5))]) {
            $0.lastReading = .init(route: .receiver, t: 6000, seq: 5)
        }
        store.send(.deviceDisconnected(id: "hs"), at: 6000, outputs: [.timer(settle(6501, 6, 5))]) {
            $0.devices = []; $0.predictionSeq = 6
        }
        store.fire(settle(6501, 4, 5))                                                    // that window closed
        store.fire(settle(6501, 6, 5), outputs: [finding("route.overrideFlushed", .info, "R15", [5, 6, 3], t: 6501)]) {
            $0.override = nil; $0.overrideSeq = nil; $0.predictionSeq = 5
        }
    }

    func test_R15_aReadingThatShowsNInTheWindowNeedsNoR12Explanation() {
        // An override change 1.5 s after the unplug, with nothing in the match window before it that accounts.
        var store = unplugged()
        store.send(reading(.receiver, .override), at: 6500, outputs: [.timer(settle(7001, 6, 7))]) {
            $0.lastReading = .init(route: .receiver, t: 6500, seq: 7)
        }
        // The same change without a window is R12's case.
        var plain = TestStore.started()
        plain.skip(callSession(), at: 10)
        plain.send(reading(.speaker, .override), at: 6500, outputs: [finding("session.changedByOtherComponent", .warning, "R12", [3], t: 6500)]) {
            $0.lastReading = .init(route: .speaker, t: 6500, seq: 3)
        }
    }

    func test_R15_whenAWindowOpens() {
        // Not engaged, no override, or a disconnect of an id that is not connected: no window.
        var idle = TestStore.started(engaged: false)
        idle.skip(.setRoute(target: .speaker, api: nil), at: 10)
        idle.skip(.deviceConnected(id: "bt", kind: .bluetooth, name: nil, port: nil), at: 20)
        XCTAssertNil(idle.engine.obligations.flush)
        var plain = TestStore.started()
        plain.skip(.deviceConnected(id: "bt", kind: .bluetooth, name: nil, port: nil), at: 20)
        XCTAssertNil(plain.engine.obligations.flush)
        var store = TestStore.started()
        store.skip(.setRoute(target: .speaker, api: nil), at: 10)
        store.skip(.deviceDisconnected(id: "nobody"), at: 20)
        XCTAssertNil(store.engine.obligations.flush)
        // A repeated connect of a connected id moves it last in R4's order: it opens one.
        store.skip(.deviceConnected(id: "bt", kind: .bluetooth, name: nil, port: nil), at: 30)     // seq 4
        store.skip(.deviceConnected(id: "hs", kind: .headset, name: nil, port: nil), at: 40)       // seq 5
        store.send(.deviceConnected(id: "bt", kind: .bluetooth, name: nil, port: nil), at: 50) {
            $0.devices = [.init(id: "hs", kind: .headset, seq: 5), .init(id: "bt", kind: .bluetooth, seq: 6)]; $0.predictionSeq = 6
        }
        XCTAssertEqual(store.engine.obligations.flush?.openedBy, 6)
        // Interrupted: none opens.
        store.skip(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 60)
        store.skip(.deviceDisconnected(id: "bt"), at: 70)
        XCTAssertNil(store.engine.obligations.flush)
    }

    func test_R15_aResetClosesTheWindowOnTheStateBeforeIt_withTheCallSessionStillUp() {
        // Default speaker; a videoChat call session (R11) makes the earpiece override play on the speaker, so
        // after the unplug O = N = speaker: nothing to decide. The reset ends the call session (R19), but the
        // window closes before the reset applies (v3's order within a record): O and N are still equal, so
        // the reset flushes nothing, and the rebuild in voiceChat plays the override on the receiver.
        let (engine, findings) = replayed([
            (100, .joinChannel(channel: "c")),                                              // 1
            (110, callSession("videoChat")),                                                // 2
            (1000, .setRoute(target: .earpiece, api: nil)),                                 // 3: ineffective, videoChatMode
            (2000, .deviceConnected(id: "hs", kind: .headset, name: nil, port: "Headphones")),
            (2010, reading(.headset)),
            (5000, .deviceDisconnected(id: "hs")),                                          // 6: a window, O = N
            (5020, reading(.speaker)),                                                      // 7: N, and O
            (5300, .mediaServicesReset),                                                    // 8: closes it
            (6000, callSession("voiceChat")),                                               // 9: the rebuild
        ], header: header(initialDefault: .speaker))
        XCTAssertEqual(raised(.routeOverrideFlushed, in: findings), [], "O = N at the reset: nothing to flush")
        XCTAssertEqual(engine.state.override, .earpiece, "the override survives the reset (I5)")
        XCTAssertEqual(engine.state.predictedRoute, .receiver)
    }

    func test_R15_anOverrideSetDuringAnInterruptionThatAnotherReplaced_opensNoWindowAtTheRecovery() {
        // Default speaker, device on the speaker. During an interruption the app asks for the earpiece
        // (deferred); a second interruption (a new os.interruptionBegan, or a CallKit hold) replaces the
        // first before the recovery. The deferred call is applied at the recovery (V2), so the override was
        // set during the interruption that recovers: no flush window, and the speaker shown is a divergence.
        for second: RecordBody in [.interruptionBegan(cause: .siri, wasSuspended: nil), .callKit(event: .didDeactivate, callId: nil)] {
            let recovery: RecordBody = second == .interruptionBegan(cause: .siri, wasSuspended: nil)
                ? .interruptionEnded(shouldResume: true) : .callKit(event: .didActivate, callId: nil)
            let (engine, findings) = replayed([
                (100, .joinChannel(channel: "c")),
                (110, callSession()),
                (130, reading(.speaker, .categoryChange)),
                (2000, .interruptionBegan(cause: .otherApp, wasSuspended: nil)),            // 4
                (2500, .setRoute(target: .earpiece, api: nil)),                             // 5: deferred, interrupted
                (3000, second),                                                             // 6
                (4000, recovery),                                                           // 7: recovers, applies 5
                (9000, .sdkLog(level: "debug", message: "tick")),
            ], header: header(initialDefault: .speaker))
            XCTAssertNil(engine.obligations.flush, "\(second): no window at the recovery")
            XCTAssertEqual(raised(.routeOverrideFlushed, in: findings), [], "\(second)")
            XCTAssertEqual(engine.state.override, .earpiece, "\(second)")
            XCTAssertEqual(engine.state.predictedRoute, .receiver, "\(second)")
        }
    }

    func test_R15_anUnknownReadingLoggedAfterAReadingOfItsMs_doesNotHideItFromTheWindow() {
        // The receiver reading and an `unknown` one are logged before the unplug of their ms: both are in the
        // window the unplug opens; `unknown` is ignored, so the receiver (N) has been shown since 5000 and
        // settles at 5501: the override is flushed.
        let (engine, findings) = replayed([
            (100, .joinChannel(channel: "c")),
            (110, callSession()),
            (1000, .setRoute(target: .speaker, api: nil)),                                  // 3
            (2000, .deviceConnected(id: "hs", kind: .headset, name: nil, port: "Headphones")),
            (2010, reading(.headset)),
            (5000, reading(.receiver, .oldDeviceUnavailable)),                              // 6
            (5000, reading(.unknown)),                                                      // 7
            (5000, .deviceDisconnected(id: "hs")),                                          // 8: opens the window
            (6000, .sdkLog(level: "debug", message: "tick")),
        ])
        XCTAssertEqual(raised(.routeOverrideFlushed, in: findings), ["[6, 8, 3]@5501"])
        XCTAssertNil(engine.state.override)
        XCTAssertEqual(engine.state.predictedRoute, .receiver)
    }
}
