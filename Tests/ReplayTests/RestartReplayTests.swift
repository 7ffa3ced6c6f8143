import Replay
import TestSupport
import TraceModel
import XCTest

/// A part begun by a recorder restarted after a crash (`session.resumed`): the SDK's own settings, its
/// engagement and its call session lived in the process that died, so they start afresh at the part's
/// header, and its checkpoint says what the new SDK knows; what iOS holds (devices, the route) survives.
final class RestartReplayTests: XCTestCase {
    static let header = TraceHeader(layer: .smeeting, sdk: "test", device: .init(model: "iPhone15,2", os: "iOS 17.4", simulator: false))

    /// A meeting on the speaker by a temporary override, then the process dies; `checkpoint` (when given)
    /// follows the resumed header.
    func restarted(defaultBeforeCrash: RouteTarget? = nil, checkpoint: TraceCheckpoint?) -> TraceBuilder {
        var first = Self.header
        first.session = .init(id: "s", part: 1)
        var b = TraceBuilder(header: first)
        if let d = defaultBeforeCrash { b.add(400, .setDefaultRoute(target: d)) }
        b.add(1500, .enterMeeting(room: "r", uid: nil))
        b.add(1535, .micPermission(status: .granted))
        b.add(1560, .sessionActivated(SessionActivation(ok: true, category: "playAndRecord", mode: "voiceChat",
                                                        options: defaultBeforeCrash == .speaker ? ["allowBluetooth", "defaultToSpeaker"] : ["allowBluetooth"])))
        b.add(1700, .setRoute(target: .speaker, api: "setSpeakerOutputEnabled(true)"))
        b.add(1750, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .override))
        var second = Self.header
        second.session = .init(id: "s", part: 2, resumed: true)
        b.add(10_000, .header(second))
        if let checkpoint { b.add(10_000, .checkpoint(checkpoint)) }
        b.add(10_200, .enterMeeting(room: "r", uid: nil))
        b.add(10_260, .sessionActivated(SessionActivation(ok: true, category: "playAndRecord", mode: "voiceChat", options: ["allowBluetooth"])))
        b.add(10_300, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .categoryChange))
        b.add(16_000, .routeSnapshot(route: .receiver, ports: ["Receiver"]))
        return b
    }

    func test_theDeadProcessesOverrideDoesNotOutliveIt() {
        // The checkpoint's state iOS holds (the microphone permission, the route) agrees with the records (RS1).
        for checkpoint in [nil, TraceCheckpoint(micPermission: .granted, currentRoute: .speaker)] {
            let r = restarted(checkpoint: checkpoint).replay()
            XCTAssertEqual(r.divergences, [], "the new process has no override: the receiver is its route (checkpoint: \(checkpoint != nil))")
            XCTAssertEqual(r.findings.map(\.code), [])
            XCTAssertEqual(r.verdicts.map(\.verdict), [.applied])
        }
    }

    func test_thePersistentDefaultStartsAgainFromTheNewHeader_orTheCheckpoint() {
        // The dead process set the default to speaker; the new one has not (its header names none).
        let r = restarted(defaultBeforeCrash: .speaker, checkpoint: nil).replay()
        XCTAssertEqual(r.divergences, [])
        XCTAssertFalse(r.findings.contains { $0.code == .sessionMissingDefaultToSpeaker }, "\(r.findings.map(\.code))")
        // The new SDK reports speaker as its default (the app set it again): the receiver is now a divergence.
        let kept = restarted(defaultBeforeCrash: .speaker, checkpoint: TraceCheckpoint(defaultRoute: .speaker, micPermission: .granted, currentRoute: .speaker)).replay()
        XCTAssertEqual(kept.divergences.map(\.predicted), [.speaker])
        XCTAssertTrue(kept.findings.contains { $0.code == .sessionMissingDefaultToSpeaker }, "\(kept.findings.map(\.code))")
    }

    func test_aCallStillDeferredWhenTheProcessDiedIsDropped() {
        var first = Self.header
        first.session = .init(id: "s", part: 1)
        var b = TraceBuilder(header: first)
        let call = b.add(400, .setRoute(target: .speaker, api: nil))
        var second = Self.header
        second.session = .init(id: "s", part: 2, resumed: true)
        let restart = b.add(5_000, .header(second))
        b.add(6_000, .enterMeeting(room: "r", uid: nil))
        let r = b.replay()
        let v = r.verdicts.first { $0.seq == call }
        XCTAssertEqual(v?.verdict, .deferred)
        XCTAssertEqual(v?.outcome?.kind, .dropped, "the request died with the process, it is not applied at the new process's enter")
        XCTAssertEqual(v?.outcome?.seq, restart)
    }
}
