// speakers.missedSnapshot (S3) is the finding a stressed session raises most: its advice is phrased once per
// layer and its message into one buffer; both stay the sentences below, and past the cap it is only counted.
import Contract
@testable import QualityEngine
import TraceModel
import XCTest

final class MissedSnapshotProseTests: XCTestCase {
    /// The sentences as a plain string interpolation writes them.
    private func reference(seq: Int, t: Int64, count: Int, window: Int64, _ words: LayerWords) -> (String, String) {
        let snapshot = count == 0 ? "an empty active-speaker snapshot (nobody speaks)" : "an active-speaker snapshot of \(count)"
        return ("The srv.speakers update at seq \(seq) (at \(formatDuration(t))) derives \(snapshot), but the SDK emitted "
                    + "no sdk.activeSpeakers for it within \(formatDuration(window)).",
                "didChangeActiveSpeakers fires after every server update, an empty array when nobody speaks; a UI that "
                    + "waits for it keeps highlighting a \(words.participant) who stopped. Send this trace to the "
                    + "\(words.product) SDK team.")
    }

    /// The engine after a header of `layer`, an SDK snapshot (the kind is seen: a missed one is judged at once)
    /// and one speaker update at 61,005 ms (seq 2) whose snapshot is never answered, with the timer that
    /// closes its window.
    private func unanswered(_ layer: Layer, speaking: [Speaker]) -> (QualityEngine, QualityTimer) {
        var engine = QualityEngine()
        _ = engine.apply(Record(seq: 0, t: 0, .header(TraceHeader(layer: layer))))
        _ = engine.apply(Record(seq: 1, t: 10, .sdkActiveSpeakers(speakers: [])))
        let out = engine.apply(Record(seq: 2, t: 61_005, .speakers(speaking: speaking, stopped: [])))
        let timer = out.compactMap { if case .timer(let t) = $0 { t } else { nil } }.first!
        return (engine, timer)
    }

    func test_aKeptMissedSnapshotSaysItsDefinedSentencesInEachLayer() {
        for layer in [Layer.srtc, .smeeting] {
            for speaking in [[], [speaker("a", "mic", 0.4), speaker("b", "mic", 0.2), speaker("c", "cam", 0.1)]] {
                var (engine, timer) = unanswered(layer, speaking: speaking)
                let findings = engine.fire(timer).compactMap { if case .finding(let f) = $0 { f } else { nil } }
                XCTAssertEqual(findings.map(\.code), [.speakersMissedSnapshot])
                let (message, advice) = reference(seq: 2, t: 61_005, count: speaking.count,
                                                  window: QualityEngine.Options().matchWindowMs, LayerWords(layer))
                XCTAssertEqual(findings.first?.message, message)
                XCTAssertEqual(findings.first?.advice, advice)
            }
        }
    }

    func test_pastTheCapAMissedSnapshotIsCountedNotBuilt() {
        var (engine, timer) = unanswered(.srtc, speaking: [speaker("a", "mic", 0.4)])
        var sink = QualitySink(observed: false, deadlinesAsTimers: true)
        sink.keepsFindings = false
        engine.fire(timer, into: &sink)
        XCTAssertEqual(sink.outputs, [.counted(FindingCount(code: .speakersMissedSnapshot, seq: 2, t: timer.due))])
    }
}
