import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TraceCodec
import TraceModel

/// The writer harness (`WriterHarness`, run as a child of the test executable) and the other
/// helpers the robustness tests are written with.
package enum Support {
    /// A child process the test talks to while it runs.
    package typealias Child = TestSupport.Child

    /// The package root.
    package static var root: String { Fixtures.root }

    /// Starts the writer harness in a child process: `args[0]` names the mode (`append`, `race`,
    /// `hold`, `read`, see `WriterHarness`), the rest are its arguments.
    package static func harness(_ args: [String], stdinPipe: Bool = false) -> Child {
        guard let mode = args.first, let role = WriterHarness.role(mode) else {
            preconditionFailure("no writer harness mode '\(args.first ?? "")'")
        }
        return TestChild.start(role, Array(args.dropFirst()), stdinPipe: stdinPipe)
    }

    /// A fresh temporary folder.
    package static func tempDir() -> String { Fixtures.tempDir("robust") }

    /// Every event of a trace.
    package static func readAll(_ path: String, limits: ReaderLimits = .standard) throws
        -> (records: [Record], problems: [TraceProblem]) {
        try Fixtures.readAll(path, limits: limits)
    }

    /// The record the harness writes at `seq`.
    package static func harnessRecord(_ seq: Int, writer: String = "a") -> Record {
        if seq == 0 {
            return Record(seq: 0, t: 0, .header(TraceHeader(layer: .srtc, sdk: "harness", startedAt: "2026-11-29T10:00:00Z")))
        }
        let pad = String(repeating: "x", count: (seq * 7919) % 61)
        return Record(seq: seq, t: Int64(seq), .sdkLog(level: writer, message: "record \(seq) \(pad)"))
    }

    /// Runs a shell script (for streaming hostile files through stock zstd without holding them).
    @discardableResult
    package static func sh(_ script: String) -> (status: Int32, out: String, err: String) {
        Child("/bin/bash", ["-c", script]).wait()
    }

    /// The harness's `read` mode: a fresh process reads the trace and reports what it found and
    /// its peak memory; `records` is -1 (and `kinds` holds the error) when it failed. A reader that
    /// loops is killed after ten minutes, far beyond what the slowest machine needs, so that it
    /// fails the test instead of hanging it.
    package static func readInChild(_ path: String, limits: ReaderLimits? = nil)
        -> (records: Int, problems: Int, kinds: [String], peakKB: Int) {
        var args = ["read", path]
        if let l = limits { args += [String(l.maxLineBytes), String(l.holdBytes), String(l.maxWindowLog)] }
        let child = harness(args)
        let pid = child.pid
        final class Done: @unchecked Sendable { var value = false }
        let done = Done()
        DispatchQueue.global().asyncAfter(deadline: .now() + 600) { if !done.value { _ = kill(pid, SIGKILL) } }
        let r = child.wait()
        done.value = true
        let f = r.out.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        guard r.status == 0, f.count == 8 else { return (-1, -1, [r.err], -1) }
        return (Int(f[1])!, Int(f[3])!, f[5] == "-" ? [] : f[5].split(separator: ",").map(String.init), Int(f[7])!)
    }

    /// An `append` run stopped where the test chose (`append … --stop POINT`).
    package struct StoppedRun {
        /// The harness's line saying where it stopped; empty when it ended without stopping.
        package var line: String
        /// The exit status: minus SIGKILL when the kill landed at the stop point.
        package var status: Int32
        /// What the harness wrote on standard error.
        package var err: String
    }

    /// Runs `append` until it reaches `stop`, then kills it with SIGKILL and waits for it. Where the
    /// kill lands never depends on timing: the harness blocks at the stop point until it is killed.
    /// Without a stop point the run completes and closes the trace.
    package static func appendAndKill(_ path: String, side: String, count: Int, flushEvery: Int,
                                     stop: String?) -> StoppedRun {
        var args = ["append", path, side, String(count), String(flushEvery)]
        if let stop { args += ["--stop", stop] }
        let child = harness(args)
        guard stop != nil else {
            let r = child.wait()
            return StoppedRun(line: "", status: r.status, err: r.err)
        }
        let line = child.readLine()
        if !line.isEmpty { child.kill(SIGKILL) }
        let r = child.wait()
        return StoppedRun(line: line, status: r.status, err: r.err)
    }

    /// The last seq the harness reported flushed in `side` (-1 before any flush).
    package static func flushedSeq(_ side: String) -> Int {
        (try? String(contentsOfFile: side, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? -1
    }
}
