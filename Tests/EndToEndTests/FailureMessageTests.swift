import CommandLineKit
import Foundation
import rtctrace
@_spi(FaultInjection) import SystemLayer
import TestSupport
import TraceCodec
import XCTest

/// A command that fails part-way says what it did before it failed, and its advice works on the input
/// it was given.
final class FailureMessageTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func records(_ path: String) throws -> Int { try Fixtures.readAll(path).records.count }

    /// `append` on a disk that fills part-way (every write after a byte budget fails with ENOSPC, through
    /// the system layer's fault hook, in process) says how many records went in, and that many did.
    func test_aPartialAppendOnAFullDiskSaysHowManyRecordsWentIn() throws {
        let trace = dir + "/t.trace.zst"
        XCTAssertEqual(CLI.runInProcess(["record", CLI.root + "/traces/srtc-setroute-before-join.jsonl", "-o", trace]).status, 0)
        let before = try records(trace)
        let more = dir + "/more.jsonl"
        try (0..<60).map { #"{"t":\#(90000 + $0),"type":"sdk.log","level":"info","message":"line \#($0) of the appended log, padded to take some room"}"# }
            .joined(separator: "\n").write(toFile: more, atomically: true, encoding: .utf8)
        let outPath = dir + "/out", errPath = dir + "/err"
        let outFile = try OpenFile(outPath, .writeOnly, options: [.create, .truncate, .closeOnExec])
        let errFile = try OpenFile(errPath, .writeOnly, options: [.create, .truncate, .closeOnExec])
        let streams: Set<FileDescriptor> = [outFile.descriptor, errFile.descriptor]
        final class Budget: @unchecked Sendable { var left = 400 }
        let budget = Budget()
        // The trace's writes have a budget of 400 bytes (a few 5-record frames); the captured streams none.
        let full = FaultInjector(write: { a in
            if streams.contains(a.descriptor) { return nil }
            if budget.left == 0 { return .fail(.noSpace) }
            let take = min(a.count, budget.left)
            budget.left -= take
            return take < a.count ? .shortWrite(take) : nil
        })
        let code = SystemFaults.with(full) {
            Dispatcher(commands: Commands.all).run(["append", trace, more, "--renumber", "--frame-records", "5"],
                                                   in: CommandContext(out: Output(outFile.descriptor, name: "standard output"),
                                                                      err: Output(errFile.descriptor, name: "standard error"),
                                                                      input: .standardInput, environment: [:], executable: CLI.binary))
        }
        try outFile.close()
        try errFile.close()
        let err = try String(contentsOfFile: errPath, encoding: .utf8)
        XCTAssertEqual(code, .ioError, err)
        XCTAssertTrue(err.contains("No space left on device"), err)
        let went = try records(trace) - before
        XCTAssertGreaterThan(went, 0, "the budget holds some frames: \(err)")
        XCTAssertLessThan(went, 60)
        XCTAssertTrue(err.contains("; \(went) of the "), "the message says the \(went) records that are in the file: \(err)")
        XCTAssertTrue(err.contains("went into \(trace)"), err)
        XCTAssertTrue(err.contains("next seq \(before + went)"), err)
    }

    /// A trace with a UTF-8 byte-order mark before its header is read by every command, with one
    /// warning; `verify` and `--strict` do not count it as damage (every command exited 65).
    func test_aByteOrderMarkIsAWarningEveryCommandReadsPast() throws {
        let path = dir + "/bom.jsonl"
        var bytes = Data([0xEF, 0xBB, 0xBF])
        bytes.append(try Data(contentsOf: URL(fileURLWithPath: CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl")))
        try bytes.write(to: URL(fileURLWithPath: path))
        let warning = "warning: \(path): byte 0: a UTF-8 byte-order mark (EF BB BF) before the first line; skipped"
        for (args, status) in [(["explain", path], 1), (["info", path, "--strict"], 0), (["verify", path], 0), (["cat", path, "--strict"], 0)] {
            let r = CLI.runInProcess(args)
            XCTAssertEqual(r.status, Int32(status), "\(args): \(r.err)")
            XCTAssertTrue(r.err.contains(warning), "\(args): \(r.err)")
        }
        XCTAssertEqual(CLI.runInProcess(["cat", path]).out.split(separator: "\n").count, 51)
    }

    /// `redact` refusing a trace whose time goes back advised `--renumber` (not redact's option; and
    /// `record --renumber` fails on the same trace): the refusal says what is wrong with the input instead.
    func test_redactsRefusalGivesNoAdviceThatFailsOnTheSameTrace() throws {
        let lines = try String(contentsOfFile: CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl", encoding: .utf8)
            .split(separator: "\n").map(String.init)
        // seq 5 missing, and seq 8 goes back in time.
        var damaged = lines.filter { !$0.hasPrefix(#"{"seq":5,"#) }
        if let i = damaged.firstIndex(where: { $0.hasPrefix(#"{"seq":8,"#) }) {
            damaged[i] = damaged[i].replacingOccurrences(of: #"^\{"seq":8,"t":\d+"#, with: #"{"seq":8,"t":1"#, options: .regularExpression)
        }
        let input = dir + "/gap.jsonl"
        try damaged.joined(separator: "\n").write(toFile: input, atomically: true, encoding: .utf8)
        let redact = CLI.runInProcess(["redact", input, "-o", dir + "/r.trace.zst", "--salt", "s"])
        XCTAssertEqual(redact.status, 1, redact.err)
        XCTAssertFalse(redact.err.contains("renumber"), redact.err)
        XCTAssertTrue(redact.err.contains("seq 6: cannot keep this record's seq and t in the redacted trace: the input has a seq gap (seq 5 is missing before it)"), redact.err)
        // The advice that was given fails on this trace.
        XCTAssertNotEqual(CLI.runInProcess(["record", input, "--renumber", "-o", dir + "/fixed.trace.zst"]).status, 0)
    }
}
