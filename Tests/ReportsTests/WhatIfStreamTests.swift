import Foundation
import Analysis
import Replay
import Reports
import TestSupport
import TraceCodec
import TraceFixtures
import TraceModel
import XCTest

/// A what-if made as the trace is read (`WhatIfStream`) says what the same what-if made from kept records
/// says (`WhatIfBase.read` and `WhatIf.run`), byte for byte in text and JSON, on the golden corpus and on
/// generated sessions; a trace whose seqs do not rise is left to the kept records.
final class WhatIfStreamTests: XCTestCase {
    /// Edits that act on each record alone, in several orders (a drop before and after a session edit,
    /// an edit from a time on, a type this version does not know, the header's own type).
    static let editSets: [[WhatIfEdit]] = [
        [],
        [.dropType(type: "os.deviceConnected", from: nil), .session(.mode, value: "default", from: nil)],
        [.session(.setOption, value: "allowBluetooth", from: nil)],
        [.session(.mode, value: "videoChat", from: 1_000), .dropType(type: "obs.sessionActivated", from: 5_000)],
        [.session(.removeOption, value: "defaultToSpeaker", from: nil), .session(.category, value: "playback", from: nil),
         .dropType(type: "sdk.routeChanged", from: 500)],
        [.dropType(type: "x.notAKnownType", from: nil), .dropType(type: "trace.header", from: nil)],
    ]

    private func assertSame(_ path: String, _ edits: [WhatIfEdit], file: StaticString = #filePath, line: UInt = #line) throws -> Bool {
        let session = TraceSession(path: path)
        var streamedProblems: [TraceProblem] = [], keptProblems: [TraceProblem] = []
        let streamed = WhatIfStream.run(session, edits: edits, onProblem: { streamedProblems.append($0) })
        let base = WhatIfBase.read(session, onProblem: { keptProblems.append($0) })
        XCTAssertEqual(streamedProblems, keptProblems, "\(path): the problems differ", file: file, line: line)
        guard let streamed else { return false }
        let kept = try WhatIf.run(base, edits: edits)
        XCTAssertEqual(ExplainJSON.render(streamed.original, pretty: true), ExplainJSON.render(base.side.result, pretty: true),
                       "\(path): the original's replay differs", file: file, line: line)
        XCTAssertEqual(WhatIfJSON.render(streamed.whatif), WhatIfJSON.render(kept), "\(path) \(edits): the JSON differs", file: file, line: line)
        XCTAssertEqual(WhatIfText.render(streamed.whatif), WhatIfText.render(kept), "\(path) \(edits): the text differs", file: file, line: line)
        return true
    }

    func test_theGoldenCorpusGivesTheSameWhatIfReadOnce() throws {
        let names = Fixtures.goldenTraceNames()
        XCTAssertGreaterThan(names.count, 50)
        var streamed = 0
        // Three of the edit sets on each trace (every set on the generated sessions): the bench's, edits
        // from a time on, and types that are not a record's or are the header's.
        let sets = [Self.editSets[1], Self.editSets[3], Self.editSets[5]]
        for name in names {
            for edits in sets where try assertSame(Fixtures.trace(name), edits) { streamed += 1 }
        }
        // Nearly every golden trace's seqs rise: the pass is what is compared, not the fallback.
        XCTAssertGreaterThan(streamed, names.count * sets.count * 9 / 10)
    }

    func test_generatedSessionsGiveTheSameWhatIfReadOnce() throws {
        let dir = Fixtures.tempDir("whatif-stream")
        for (kind, count) in [(BenchSession.Kind.stress, 4_000), (.healthy, 2_000)] {
            let path = try Fixtures.writeBenchSession(kind, count, to: dir + "/\(kind.rawValue).trace.zst", frameRecords: 256)
            for edits in Self.editSets { XCTAssertTrue(try assertSame(path, edits), "\(kind) \(edits)") }
        }
    }

    func test_aTraceWhoseSeqsGoBackIsLeftToTheKeptRecords() throws {
        // Seq 2 twice: a drop-type takes both records named 2, which one pass in order cannot do.
        let lines = [
            #"{"seq":0,"t":0,"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc","sdk":"SRTC 4.6.2","device":{"model":"iPhone15,2","os":"iOS 17.4"}}"#,
            #"{"seq":1,"t":100,"type":"api.joinChannel","channel":"c"}"#,
            #"{"seq":2,"t":200,"type":"obs.sessionActivated","ok":true,"category":"playAndRecord","mode":"voiceChat","options":[]}"#,
            #"{"seq":3,"t":300,"type":"api.setRoute","target":"speaker"}"#,
            #"{"seq":2,"t":400,"type":"api.leaveChannel"}"#,
        ]
        let path = Fixtures.tempDir("whatif-stream") + "/back.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let edits: [WhatIfEdit] = [.session(.mode, value: "default", from: nil), .dropType(type: "api.leaveChannel", from: nil)]
        XCTAssertNil(WhatIfStream.run(TraceSession(path: path), edits: edits))
        // The kept path takes the trace as it is.
        XCTAssertEqual(try WhatIf.run(WhatIfBase.read(TraceSession(path: path)), edits: edits).changed, [true, true])
        XCTAssertFalse(WhatIfStream.streams([.drop(seq: 2)]))
        XCTAssertTrue(WhatIfStream.streams([.dropType(type: "api.setRoute", from: nil), .session(.category, value: "playback", from: 3)]))
    }
}
