@testable import TraceCodec
import TraceModel
import XCTest

/// The kind table's derived facts, and the structural pass `cat` uses for lines it passes through.
final class SkimTests: XCTestCase {
    func test_familyIsTheTypeNamesPrefix() {
        for kind in RecordKind.allCases {
            XCTAssertEqual(kind.family.rawValue, String(kind.rawValue.prefix { $0 != "." }), kind.rawValue)
        }
    }

    /// Every way of skipping ahead gives the same answer on lines built to hit block edges.
    private func structure(_ text: String, from: Int = 1) -> Bool {
        let bytes = Array(text.utf8)
        let answers = LineStructure.Skip.allCases.map { skip in
            bytes.withUnsafeBufferPointer { LineStructure.closesObject($0, from: from, skip: skip) }
        }
        XCTAssertEqual(Set(answers).count, 1, "the skips disagree on \(text): \(answers)")
        return answers[0]
    }

    func test_structureAcceptsWellFormedLinesAndRejectsBrokenOnes() {
        let good = #"{"seq":1,"t":2,"type":"srv.speakers","speaking":[{"uid":"u1","trackId":"mic-u1","level":0.5}],"stopped":[]}"#
        XCTAssertTrue(structure(good))
        XCTAssertTrue(structure(good + "  \r"))
        XCTAssertTrue(structure(#"{"a":"x\"}]\\","b":[[{}]]}"#))
        for pad in 0..<40 {
            let s = String(repeating: "x", count: pad)
            XCTAssertTrue(structure(#"{"k":""# + s + #"","n":[1,2]}"#))
            XCTAssertFalse(structure(#"{"k":""# + s + #"","n":[1,2}"#), "mismatched bracket after \(pad)")
            XCTAssertFalse(structure(#"{"k":""# + s + #"","n":[1,2]"#), "unclosed object after \(pad)")
            XCTAssertFalse(structure(#"{"k":""# + s + "\u{01}" + #"","n":[1]}"#), "control byte in a string after \(pad)")
            XCTAssertFalse(structure(#"{"k":""# + s + "é" + #""}"#), "non-ASCII is left to the decoder")
            XCTAssertFalse(structure(#"{"k":""# + s + #""}} "#), "closes twice")
            XCTAssertFalse(structure(#"{"k":""# + s + #"}"#), "unterminated string")
        }
        XCTAssertFalse(structure(#"{"k":1} x"#))
        XCTAssertFalse(structure(#"{"k":1]"#))
    }

    func test_skimReadsCanonicalHighRateLinesOnly() {
        func skim(_ text: String) -> SkimmedLine? {
            Array(text.utf8).withUnsafeBufferPointer { RecordDecoder.skim($0) }
        }
        XCTAssertEqual(skim(#"{"seq":7,"t":90,"type":"sdk.log","level":"info","message":"hi"}"#),
                       SkimmedLine(seq: 7, t: 90, kind: .sdkLog))
        XCTAssertNil(skim(#"{"seq":0,"t":0,"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc"}"#), "not high-rate")
        XCTAssertNil(skim(#"{"t":90,"seq":7,"type":"sdk.log","level":"info","message":"hi"}"#), "not canonical")
        XCTAssertNil(skim(#"{"seq":7,"t":90,"type":"sdk.log","level":"info","message":"hi""#), "torn")
        XCTAssertNil(skim(#"{"seq":07,"t":90,"type":"sdk.log","level":"info","message":"hi"}"#), "leading zero")
    }
}
