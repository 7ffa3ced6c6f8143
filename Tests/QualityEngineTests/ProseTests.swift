// Findings speak the trace's layer: SRTC says channel/join/leave/user, SMeeting says meeting/enter/exit/member.
import Contract
@testable import QualityEngine
import TraceModel
import XCTest

final class ProseTests: XCTestCase {
    /// A trace that raises every finding code the engine owns.
    private func allFindings(_ layer: Layer) -> [Finding] {
        var engine = QualityEngine()
        var out: [QualityOutput] = []
        var seq = 0
        func send(_ t: Int64, _ body: RecordBody) {
            out += engine.apply(Record(seq: seq, t: t, body))
            seq += 1
        }
        send(0, .header(TraceHeader(layer: layer)))
        send(0, .connState(state: .connected))
        send(0, .subscribe(pubUid: "p", trackId: "cam", layers: ["h"]))
        send(10, .switchLayer(pubUid: "p", trackId: "cam", targetTrackId: "x"))   // targetNotInCandidates
        send(20, .switchLayer(pubUid: "q", trackId: "cam", targetTrackId: "x"))   // switchNotConfirmed at end
        send(25, .switchLayer(pubUid: "p", trackId: "cam", targetTrackId: "h"))
        send(26, .sdkError(api: "switchLayer", error: "webrtcError: send failed"))  // switchNotSent (L4)
        send(30, .sdkQualityChanged(overall: .poor, previous: .good, mos: nil))   // spurious
        for i in 0..<6 { send(100 + Int64(i) * 100, report(i % 2 == 0 ? .poor : .good, .good)) }  // flapping, missed
        send(900, .speakers(speaking: [speaker("a", "mic", 0.4)], stopped: []))
        send(950, .sdkActiveSpeakers(speakers: []))                                // mismatch
        send(1000, .speakers(speaking: [], stopped: [key("a", "mic")]))            // missedSnapshot (S3) at end
        send(1100, .qualityReport(pub: QualitySample(level: .good, loss: 40), sub: QualitySample(level: .good)))  // T2
        out += engine.finish(t: 5000, lastSeq: seq - 1)  // past every window, so each is judged
        return out.compactMap { if case .finding(let f) = $0 { f } else { nil } }
    }

    func test_everyFindingCodeIsRaisedWithProse() {
        let codes = Set(allFindings(.srtc).map(\.code.rawValue))
        XCTAssertEqual(codes, ["layer.targetNotInCandidates", "layer.switchNotConfirmed", "quality.spuriousChange",
                               "quality.missedChange", "quality.flapping", "speakers.mismatch",
                               "layer.switchNotSent", "speakers.missedSnapshot", "trace.valueOutOfRange"])
    }

    func test_srtcProseNeverSaysMeetingRoomEnterOrExit() {
        for f in allFindings(.srtc) {
            let prose = (f.message + " " + f.advice).lowercased()
            for word in ["meeting", "room", "enter", "exit", "member"] {
                XCTAssertFalse(prose.contains(word), "\(f.code) says \(word): \(prose)")
            }
        }
    }

    func test_smeetingProseNeverSaysChannelJoinOrLeave() {
        let findings = allFindings(.smeeting)
        XCTAssertFalse(findings.isEmpty)
        for f in findings {
            // API identifiers keep their literal names (the SDK's switchLayer throws SRTCError in either layer).
            let prose = (f.message + " " + f.advice).replacingOccurrences(of: "SRTCError.", with: "").lowercased()
            for word in ["channel", "join", "leave", "srtc"] {
                XCTAssertFalse(prose.contains(word), "\(f.code) says \(word): \(prose)")
            }
        }
        XCTAssertTrue(findings.contains { $0.advice.contains("member") })
    }

    func test_adviceNamesTheLevelChangeEventForQualityFindings() {
        for f in allFindings(.srtc) where f.code.family == .quality {
            XCTAssertTrue(f.advice.contains("didChangeConnectionQuality"), f.code.rawValue)
            XCTAssertEqual(f.severity, .warning)
        }
        let flapping = allFindings(.srtc).first { $0.code == .qualityFlapping }!
        XCTAssertTrue(flapping.advice.contains("hysteresis"))
    }
}
