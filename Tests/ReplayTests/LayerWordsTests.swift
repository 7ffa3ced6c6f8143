import Foundation
import Reports
import TestSupport
import XCTest

/// Reports speak the trace's layer: SRTC channels that users join and leave; SMeeting meetings
/// that members enter and exit. Checked over every golden trace's explanation.
final class LayerWordsTests: XCTestCase {
    func prose(_ text: String) -> String {
        // API identifiers keep their literal names; trace data (names, ids) is not prose either.
        var t = text
        for id in ["api.joinChannel", "api.leaveChannel", "api.enterMeeting", "api.exitMeeting", "joinChannel", "leaveChannel",
                   "enterMeeting", "exitMeeting", "SMeeting", "meetingAudioRouteDidRecoverFromInterruption"] {
            t = t.replacingOccurrences(of: id, with: "")
        }
        return t.lowercased()
    }

    func test_explanationsNeverMixTheLayersWords() throws {
        var checked = 0
        for f in Fixtures.goldenTraceNames() {
            let result = try Fixtures.replay(f)
            let text = prose(ExplainText.render(result) + result.findings.map { $0.message + " " + $0.advice }.joined(separator: " "))
            let forbidden = result.layer == .smeeting ? ["channel", " join", " leave", "joined", " user "] : ["meeting", " room", " enter", " exit", "member"]
            for word in forbidden {
                XCTAssertFalse(text.contains(word), "\(f) (\(result.layer.rawValue)) says '\(word)'")
            }
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 40)
    }
}
