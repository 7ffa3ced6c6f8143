import Analysis
import CommandLineKit
import Workflows
import XCTest

/// The check worker's outcomes survive the trip through the wire form exactly, one after another,
/// and a worker cut off mid-outcome leaves only the complete ones.
final class WireFormatTests: XCTestCase {
    func outcome(_ file: String, failures: [String], expectations: Int, snapshot: SnapshotState, rendered: String,
                 session: String? = nil) -> CheckOutcome {
        var o = CheckOutcome(file: file)
        o.session = session
        o.failures = failures
        o.expectations = expectations
        o.snapshot = snapshot
        o.rendered = rendered
        return o
    }

    func assertSame(_ a: CheckOutcome?, _ b: CheckOutcome, file: StaticString = #filePath, line: UInt = #line) {
        guard let a else { return XCTFail("no outcome", file: file, line: line) }
        XCTAssertEqual(a.file, b.file, file: file, line: line)
        XCTAssertEqual(a.failures, b.failures, file: file, line: line)
        XCTAssertEqual(a.expectations, b.expectations, file: file, line: line)
        XCTAssertEqual(a.snapshot, b.snapshot, file: file, line: line)
        XCTAssertEqual(a.rendered, b.rendered, file: file, line: line)
        XCTAssertEqual(a.session, b.session, file: file, line: line)
    }

    /// Values that would break a line- or space-delimited form: newlines, the field separators,
    /// a fake `end` field, empty strings, multi-byte text.
    lazy var samples = [
        outcome("a.jsonl", failures: [], expectations: 3, snapshot: .matched, rendered: "{\n  \"ok\": true\n}\n"),
        outcome("s/part-1.jsonl", failures: [], expectations: 1, snapshot: .none, rendered: "", session: "6c1f0d3a-weekly sync\nend 0"),
        outcome("b c.jsonl", failures: ["b: seq 4: expected x\nend 0\n", "", "é 日本"], expectations: 0,
                snapshot: .changed(diff: "--- a\n+++ b\n-1\n+2\n"), rendered: ""),
        outcome("c.jsonl", failures: ["rendered 5\n"], expectations: Int.max, snapshot: .none, rendered: "end 0\n\n"),
    ]

    func test_eachOutcomeRoundTrips() {
        for o in samples {
            let bytes = o.wireEncoded
            XCTAssertTrue(bytes.starts(with: Array(CheckOutcome.wireHeader.utf8)))
            assertSame(CheckOutcome(wire: bytes, file: o.file), o)
        }
    }

    func test_outcomesWrittenOneAfterAnotherReadBackInOrder() {
        let bytes = samples.flatMap(\.wireEncoded)
        let back = CheckOutcome.decodeAll(wire: bytes, files: samples.map(\.file))
        XCTAssertEqual(back.count, samples.count)
        for (a, b) in zip(back, samples) { assertSame(a, b) }
    }

    /// A worker that crashed mid-outcome: every cut keeps exactly the outcomes completed before it.
    func test_aCutOffOutcomeIsNotRead() {
        let first = samples[0].wireEncoded, second = samples[1].wireEncoded
        let bytes = first + second
        for cut in 0..<bytes.count {
            let back = CheckOutcome.decodeAll(wire: Array(bytes[..<cut]), files: samples.map(\.file))
            XCTAssertEqual(back.count, cut >= first.count ? 1 : 0, "cut at \(cut)")
        }
        XCTAssertNil(CheckOutcome(wire: Array(first.dropLast()), file: "a.jsonl"))
        XCTAssertNil(CheckOutcome(wire: Array("rtctrace-check-outcome 2\n".utf8) + first.dropFirst(CheckOutcome.wireHeader.utf8.count),
                                  file: "a.jsonl"))
        XCTAssertNil(CheckOutcome(wire: [], file: "a.jsonl"))
    }
}
