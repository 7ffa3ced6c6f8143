import Foundation
import Replay
import TestSupport
import TraceCodec
import TraceModel
@testable import TraceRecorder
import XCTest

/// Helpers for the recorder's tests: folders, reading parts back, replaying them as one trace.
enum Support {
    static func tempDir() -> String { Fixtures.tempDir("recorder") }

    /// How the recorders of these tests compress, from `RTCTRACE_RECORDER_COMPRESSION`: `system`
    /// (libzstd, the default), `stored` (the recorder's own encoder) or `injected` (a compressor passed
    /// in, as an SDK that links its own zstd does). `make test` runs this target once with each.
    static let compression: String = ProcessInfo.processInfo.environment["RTCTRACE_RECORDER_COMPRESSION"] ?? "system"

    /// The configuration's compression for `compression`.
    static var configuredCompression: RecorderConfiguration.Compression { compression(named: compression) }

    /// The configuration's compression called `name` (`system`, `stored` or `injected`).
    static func compression(named name: String) -> RecorderConfiguration.Compression {
        switch name {
        case "stored": .stored
        case "injected": .custom { SDKZstd() }
        default: .automatic
        }
    }

    /// A configuration for `dir` with the tests' compression (and a manual clock when given).
    static func configuration(_ dir: String, layer: Layer = .srtc, sdk: String? = nil, clock: ManualClock? = nil) -> RecorderConfiguration {
        var c = RecorderConfiguration(directory: dir, layer: layer, sdk: sdk)
        if let clock { c.clock = clock }
        c.compression = configuredCompression
        return c
    }

    /// The trace files under `dir` (top, outbox/, local/), by folder-relative path, sorted.
    static func traceFiles(_ dir: String) -> [String] {
        var out: [String] = []
        for sub in ["", "/outbox", "/local"] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir + sub)) ?? []
            out += names.filter { $0.hasSuffix(".trace.zst") }.map { String((sub + "/" + $0).dropFirst()) }
        }
        return out.sorted()
    }

    /// Every record and problem of one file.
    static func read(_ path: String) throws -> (records: [Record], problems: [TraceProblem]) { try Fixtures.readAll(path) }

    /// Records a script with a recorder driven by a manual clock from four threads, closes it, and
    /// returns the folder's trace files (folder-relative), their parts joined, the recorder's statistics
    /// and the replay of the parts in part order. A script with a restart is recorded as a device does
    /// it: the first process dies at the restart (what it had framed stays), and a second one continues
    /// the session in a part marked resumed.
    static func record(_ script: Script, in dir: String, _ adjust: (inout RecorderConfiguration) -> Void = { _ in },
                       file: StaticString = #filePath, line: UInt = #line)
        throws -> (files: [String], records: [Record], statistics: RecorderStatistics, replay: ReplayResult) {
        let clock = ManualClock()
        var config = script.configuration(directory: dir, clock: clock)
        config.compression = configuredCompression
        config.sessionId = "scripted"
        adjust(&config)
        let driver = ScriptDriver(clock: clock)
        var recorder = TraceRecorder(config)
        if let restart = script.restartAt {
            driver.play(script.steps, into: recorder, range: Int64.min..<restart)
            XCTAssertTrue(recorder.flush(timeout: 30), file: file, line: line)
            XCTAssertEqual(recorder.statistics.dropped, 0, "the process before the restart: \(recorder.statistics)", file: file, line: line)
            recorder.simulateCrash()
            driver.advance(to: restart)
            config.resume = .leftOpen(withinSeconds: 600)
            recorder = TraceRecorder(config)
            driver.play(script.steps, into: recorder, range: restart..<Int64.max)
        } else {
            driver.play(script.steps, into: recorder)
        }
        XCTAssertTrue(recorder.close(timeout: 30), "the recorder closes in time", file: file, line: line)
        let files = traceFiles(dir)
        let paths = try partsInOrder(files.map { dir + "/" + $0 })
        return (files, try joinParts(paths, file: file, line: line), recorder.statistics, (try Replay.run(TraceSession(paths: paths), unopened: .isAProblem)))
    }

    /// The parts of one session in part order (by their headers).
    static func partsInOrder(_ paths: [String]) throws -> [String] {
        try paths.map { p -> (Int, String) in
            guard case .header(let h)? = try read(p).records.first?.body else { return (0, p) }
            return (h.session?.part ?? 0, p)
        }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// The parts of one session, read in part order and joined: the first part's header is kept,
    /// the headers of the later parts are checked (same session, next part, seq and t continuing) and left out.
    static func joinParts(_ paths: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [Record] {
        try joinPartsKeepingHeaders(paths, file: file, line: line).records
    }

    /// `joinParts`, also returning the header of every part, in part order.
    static func joinPartsKeepingHeaders(_ paths: [String], file: StaticString = #filePath, line: UInt = #line) throws -> (records: [Record], headers: [Record]) {
        var parts: [(part: Int, records: [Record])] = []
        for p in paths {
            let (records, problems) = try read(p)
            XCTAssertEqual(problems, [], "\(p) has problems", file: file, line: line)
            guard case .header(let h)? = records.first?.body, let s = h.session else {
                XCTFail("\(p) does not start with a header naming its session", file: file, line: line)
                continue
            }
            parts.append((s.part, records))
        }
        parts.sort { $0.part < $1.part }
        XCTAssertEqual(parts.map(\.part), Array(1...max(1, parts.count)), "parts are numbered 1…N", file: file, line: line)
        var out: [Record] = [], headers: [Record] = []
        var last: Record?
        for (i, p) in parts.enumerated() {
            if let last {
                XCTAssertEqual(p.records.first?.seq, last.seq + 1, "part \(p.part) continues seq", file: file, line: line)
                XCTAssertGreaterThanOrEqual(p.records.first?.t ?? -1, last.t, "part \(p.part) continues t", file: file, line: line)
            }
            headers += p.records.prefix(1)
            out += i == 0 ? p.records : Array(p.records.dropFirst())
            last = p.records.last
        }
        return (out, headers)
    }

    /// Waits (polling) until `condition` holds, for at most `seconds`; for results of another thread.
    static func eventually(_ seconds: Double = 20, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !condition() {
            if Date() > deadline { return false }
            usleep(2000)
        }
        return true
    }

    /// Checks a replay against what the script intends: verdicts in call order, findings in order, divergences.
    static func assertIntended(_ result: ReplayResult, _ script: Script, file: StaticString = #filePath, line: UInt = #line) {
        let verdicts = result.verdicts.map { Script.ExpectedVerdict($0.call.rawValue, $0.verdict, $0.cause) }
        XCTAssertEqual(verdicts, script.expectedVerdicts, "\(script.name): verdicts", file: file, line: line)
        XCTAssertEqual(result.findings.map { Script.ExpectedFinding($0.code, $0.severity) }, script.expectedFindings, "\(script.name): findings", file: file, line: line)
        XCTAssertEqual(result.divergences.count, script.expectedDivergences, "\(script.name): divergences", file: file, line: line)
    }

    /// The script's steps and the records written for them agree: the same bodies at the same times
    /// (records made at the same moment by different threads may come in either order).
    static func assertSameSteps(_ records: [Record], _ script: Script, redacted: Bool = false,
                                file: StaticString = #filePath, line: UInt = #line) {
        let written = records.filter {
            switch $0.body {
            case .header, .checkpoint: false
            default: true
            }
        }
        XCTAssertEqual(written.count, script.steps.count, "\(script.name): record count", file: file, line: line)
        guard !redacted else { return }
        func key(_ t: Int64, _ b: RecordBody) -> String { "\(t) \(Record(seq: 0, t: t, b).jsonLine)" }
        XCTAssertEqual(written.map { key($0.t, $0.body) }.sorted(), script.steps.map { key($0.t, $0.event.body) }.sorted(),
                       "\(script.name): records", file: file, line: line)
    }
}
