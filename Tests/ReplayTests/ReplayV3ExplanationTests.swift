import Analysis
import Contract
import Replay
import Reports
import TestSupport
import TraceModel
import XCTest

/// X3 (v3): the rows are checked at every moment a divergence is open, and a finding raised at the end of
/// its window attaches its explanation when it is raised: also to a divergence that had already closed,
/// when the row held at a moment it was open. Its finding, severity and the counts follow.
final class ReplayV3ExplanationTests: XCTestCase {
    private let voice = SessionActivation(ok: true, category: "playAndRecord", mode: "voiceChat", options: ["allowBluetooth"])

    /// The `route.divergence` finding of divergence `i`, as the result holds it.
    private func finding(of i: Int, in r: ReplayResult) -> Finding? {
        r.divergences[i].finding.map { r.findings[$0] }
    }

    func test_X3_aDivergenceClosedBeforeNotRecoveredWasRaised_isExplainedFromTheRecoveryItNames() {
        var b = TraceBuilder(.srtc)
        b.add(1000, .joinChannel(channel: "c"))
        b.add(1010, .sessionActivated(voice))
        b.add(1020, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .categoryChange))
        // Before the interruption: a divergence no row covers.
        b.add(1500, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .routeConfigurationChange))
        b.add(2500, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .routeConfigurationChange))
        b.add(3000, .interruptionBegan(cause: .siri, wasSuspended: nil))
        b.add(3100, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .routeConfigurationChange))
        let ended = b.add(6000, .interruptionEnded(shouldResume: true))      // recovers; nothing confirms it
        b.add(8000, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .routeConfigurationChange))
        // Closed at 8000, before interruption.notRecovered falls due (11001): unexplained so far.
        let before = b.expect(9000, .predictedBy(ref: 1, rule: .R2, seq: nil, appliedBy: nil,
                                                 explanation: .init(explained: false, by: .some(nil))))
        b.add(15000, .routeSnapshot(route: .receiver, ports: nil))
        let after = b.expect(15000, .predictedBy(ref: 1, rule: .R2, seq: nil, appliedBy: nil,
                                                 explanation: .init(explained: true, by: .some(.interruptionNotRecovered))))
        b.add(20000, .leaveChannel)
        let r = b.replay()
        XCTAssertEqual(r.findingCounts[.interruptionNotRecovered], 1)
        XCTAssertEqual(r.divergences.map { [$0.start, $0.end] }, [[1500, 2500], [6000, 8000]])
        XCTAssertNil(r.divergences[0].explainedBy, "it closed before the recovery the finding names")
        XCTAssertEqual(r.divergences[1].explainedBy, .interruptionNotRecovered)
        XCTAssertEqual(r.divergences[1].explainedBySeq, ended)
        XCTAssertEqual(r.divergenceCount, 2)
        XCTAssertEqual(r.unexplainedDivergenceCount, 1, "the counts follow")
        XCTAssertEqual(r.expectations.map(\.seq), [before, after])
        XCTAssertEqual(r.expectations.map(\.passed), [true, true], r.expectations.map(\.actual).joined(separator: "; "))
        let explained = finding(of: 1, in: r)
        XCTAssertEqual(explained?.severity, .warning)
        XCTAssertEqual(explained?.rule, .X3)
        XCTAssertEqual(explained?.t, 6501, "raised when it counted")
        XCTAssertTrue(explained?.message.hasSuffix("explained by interruption.notRecovered (seq \(ended))") ?? false,
                      explained?.message ?? "")
        XCTAssertEqual(finding(of: 0, in: r)?.severity, .error)
        let text = ExplainText.render(r)
        XCTAssertTrue(text.contains("2 route divergences (1 unexplained, 1 explained)"), text)
        XCTAssertTrue(text.contains("explained by: interruption.notRecovered"), text)
    }

    /// X3 (v4): the row covers every moment from the opening of the window that raised it, whatever the
    /// activations in between.
    func test_X3_aDivergenceClosedBeforeCallPathNotUpWasRaised_isExplainedFromTheWindowsOpening() {
        var b = TraceBuilder(.smeeting)
        b.add(1000, .enterMeeting(room: "r"))
        // No activation yet: the row does not hold while this one is open.
        b.add(1020, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .routeConfigurationChange))
        b.add(2000, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .routeConfigurationChange))
        b.add(2500, .sessionActivated(SessionActivation(ok: true, category: "playback", mode: "default")))
        b.add(3000, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .routeConfigurationChange))
        b.add(4000, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .routeConfigurationChange))
        b.add(9000, .routeSnapshot(route: .receiver, ports: nil))
        b.add(10000, .exitMeeting)
        let r = b.replay()
        XCTAssertEqual(r.findingCounts[.sessionCallPathNotUp], 1, "raised at 6001")
        XCTAssertEqual(r.divergences.map { [$0.start, $0.end] }, [[1020, 2000], [3000, 4000]])
        XCTAssertEqual(r.divergences[0].explainedBy, .sessionCallPathNotUp, "open after the window opened, with no call path up (v4)")
        XCTAssertEqual(r.divergences[1].explainedBy, .sessionCallPathNotUp)
        XCTAssertEqual(r.divergences[1].explainedBySeq, 1, "the window's record: the enter")
        XCTAssertEqual(r.unexplainedDivergenceCount, 0)
        XCTAssertEqual(finding(of: 1, in: r)?.severity, .warning)
        XCTAssertEqual(finding(of: 1, in: r)?.rule, .X3)
        XCTAssertEqual(finding(of: 0, in: r)?.severity, .warning)
    }
}
