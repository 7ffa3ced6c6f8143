import Foundation
import TestSupport
import TraceCodec
import TraceModel
import XCTest

/// `cat` without a filter passes lines through, and still checks frames, checksums, line structure, seq,
/// time and the header: damage is reported as the decoding reader reports it.
final class CatPassthroughTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }

    /// A trace of every high-rate kind and more, in frames of 8 records; its JSON Lines text.
    private func trace() throws -> (path: String, lines: [String]) {
        let records = Fixtures.records(200).filter { if case .unknown = $0.body { false } else { true } }
            .enumerated().map { Record(seq: $0.offset, t: $0.element.t, $0.element.body) }
        let path = dir + "/t.trace.zst"
        var o = TraceWriter.Options()
        o.frameRecords = 8
        try Fixtures.write(records, path, options: o)
        return (path, records.map { r in
            var w = JSONWriter()
            r.encode(into: &w)
            return w.string
        })
    }

    /// What the decoding reader makes of a trace: its records' lines and its problems as `warn` prints them.
    private func decoded(_ path: String) throws -> (out: String, problems: [String]) {
        let reader = try TraceReader(path: path)
        var out = "", problems: [String] = []
        while let e = reader.next() {
            switch e {
            case .record: out += reader.withCurrentLine { String(decoding: $0, as: UTF8.self) } + "\n"
            case .problem(let p): problems.append(p.description)
            }
        }
        return (out, problems)
    }

    private func assertCatAsDecoded(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let want = try decoded(path)
        let got = CLI.runInProcess(["cat", path])
        XCTAssertEqual(got.status, 0, got.err, file: file, line: line)
        XCTAssertEqual(got.out, want.out, file: file, line: line)
        for p in want.problems { XCTAssertTrue(got.err.contains(p), "missing on stderr: \(p)\n\(got.err)", file: file, line: line) }
        XCTAssertEqual(got.err.split(separator: "\n").count, want.problems.count, got.err, file: file, line: line)
        // A filter reads only the fields it filters on, and reports the same damage.
        let filtered = CLI.runInProcess(["cat", path, "--from", "0"])
        XCTAssertEqual(filtered.out, want.out, file: file, line: line)
        XCTAssertEqual(filtered.err, got.err, file: file, line: line)
    }

    func test_passthroughPrintsEveryLineAsRecorded() throws {
        let (path, lines) = try trace()
        let got = CLI.runInProcess(["cat", path])
        XCTAssertEqual(got.status, 0, got.err)
        XCTAssertEqual(got.out, lines.joined(separator: "\n") + "\n")
        XCTAssertEqual(got.err, "")
        try assertCatAsDecoded(path)
    }

    func test_tornTailAndFlippedByteAreReportedAsTheReaderReportsThem() throws {
        let (path, _) = try trace()
        let full = try Data(contentsOf: URL(fileURLWithPath: path))
        let torn = dir + "/torn.trace.zst"
        try full.prefix(full.count - 40).write(to: URL(fileURLWithPath: torn))
        try assertCatAsDecoded(torn)
        XCTAssertTrue(CLI.runInProcess(["cat", torn]).err.contains("final frame is cut short"))
        for offset in stride(from: full.count / 3, to: full.count / 3 + 60, by: 7) {
            var d = full
            d[offset] ^= 0x5A
            let flipped = dir + "/flipped-\(offset).trace.zst"
            try d.write(to: URL(fileURLWithPath: flipped))
            try assertCatAsDecoded(flipped)
        }
    }

    /// Lines passed on in runs (no filter) print and report as lines passed on one by one (a filter that
    /// keeps every line) and as the decoding reader reads them, around every break of a run: a seq gap, a
    /// repeated seq, time going back, a blank line, a carriage return, a header or an unknown type in the
    /// middle, a line of another type, a broken line, and a last line without its newline.
    func test_runsBreakWhereALineNeedsALook() throws {
        let (_, lines) = try trace()
        var text = lines.map { $0 + "\n" }
        func replaceSeq(_ i: Int, _ seq: Int) {
            text[i] = text[i].replacingOccurrences(of: "{\"seq\":\(i),", with: "{\"seq\":\(seq),")
        }
        replaceSeq(40, 41)
        replaceSeq(60, 59)
        text[80] = text[80].replacingOccurrences(of: #","t":800,"#, with: #","t":780,"#)
        text.insert("\n", at: 100)
        text[120] = text[120].replacingOccurrences(of: "\n", with: "\r\n")
        text.insert(lines[0] + "\n", at: 140)
        text.insert(#"{"seq":150,"t":1,"type":"vendor.newThing","x":1}"# + "\n", at: 150)
        text[160] = String(text[160].dropLast(5)) + "\n"
        text[text.count - 1] = String(text[text.count - 1].dropLast())
        let path = dir + "/irregular.jsonl"
        try text.joined().write(toFile: path, atomically: true, encoding: .utf8)
        try assertCatAsDecoded(path)
        let runs = CLI.runInProcess(["cat", path]), single = CLI.runInProcess(["cat", path, "--from", "0"])
        XCTAssertEqual(runs.out, single.out)
        XCTAssertEqual(runs.err, single.err)
        XCTAssertFalse(runs.err.isEmpty)
    }

    func test_aLineWhoseStructureFailsIsDecodedAndReported() throws {
        let (_, lines) = try trace()
        var text = lines
        // A speaker update cut in the middle of its array: not a closed object, so decoded, and reported.
        let i = text.firstIndex { $0.contains("\"srv.speakers\"") }!
        text[i] = String(text[i].prefix(text[i].count - 12))
        let path = dir + "/broken.jsonl"
        try (text.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        try assertCatAsDecoded(path)
        let got = CLI.runInProcess(["cat", path])
        XCTAssertTrue(got.err.contains("seq \(i)"), got.err)
        XCTAssertFalse(got.out.contains(text[i]))
    }
}
