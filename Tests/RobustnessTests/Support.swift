import Foundation
import Glibc
@testable import TraceFormat

/// Helpers shared by the robustness tests: temp folders, child processes, hostile files.
enum Support {
    /// The package root (for fuzz/regressions and traces/).
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The built `rtctrace-harness`, beside the test bundle.
    static let harness: String = {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [dir.appendingPathComponent("rtctrace-harness").path,
                          dir.deletingLastPathComponent().appendingPathComponent("rtctrace-harness").path,
                          root + "/.build/debug/rtctrace-harness"] where access(candidate, X_OK) == 0 {
            return candidate
        }
        return root + "/.build/debug/rtctrace-harness"
    }()

    static func tempDir() -> String {
        let dir = NSTemporaryDirectory() + "rtctrace-robust-\(getpid())-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The record the harness writes at `seq` (kept in step with Sources/rtctrace-harness/main.swift).
    static func harnessRecord(_ seq: Int, writer: String = "a") -> Record {
        if seq == 0 {
            return Record(seq: 0, t: 0, .header(TraceHeader(layer: .srtc, sdk: "harness", startedAt: "2026-11-29T10:00:00Z")))
        }
        let pad = String(repeating: "x", count: (seq * 7919) % 61)
        return Record(seq: seq, t: Int64(seq), .sdkLog(level: writer, message: "record \(seq) \(pad)"))
    }

    /// A child process started with posix_spawn; stdout (and optionally stdin) are pipes.
    final class Child {
        let pid: pid_t
        let stdoutFD: Int32
        let stderrFD: Int32
        var stdinFD: Int32 = -1

        init(_ exe: String, _ args: [String], stdinPipe: Bool = false) {
            var out: [Int32] = [0, 0], err: [Int32] = [0, 0], inp: [Int32] = [0, 0]
            precondition(pipe(&out) == 0 && pipe(&err) == 0)
            if stdinPipe { precondition(pipe(&inp) == 0) }
            // No other child may inherit these ends (a held write end would keep stdin from ending).
            for fd in out + err + (stdinPipe ? inp : []) { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            posix_spawn_file_actions_adddup2(&actions, out[1], 1)
            posix_spawn_file_actions_adddup2(&actions, err[1], 2)
            if stdinPipe { posix_spawn_file_actions_adddup2(&actions, inp[0], 0) }
            let argv = ([exe] + args).map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) }; posix_spawn_file_actions_destroy(&actions) }
            var p: pid_t = 0
            let rc = posix_spawn(&p, exe, &actions, nil, argv, environ)
            precondition(rc == 0, "cannot start \(exe): \(rc)")
            pid = p
            close(out[1]); close(err[1])
            stdoutFD = out[0]
            stderrFD = err[0]
            if stdinPipe { close(inp[0]); stdinFD = inp[1] }
        }

        /// Reads one line from the child's stdout (blocking).
        func readLine() -> String {
            var bytes: [UInt8] = []
            var b: UInt8 = 0
            while read(stdoutFD, &b, 1) == 1 && b != 0x0A { bytes.append(b) }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// Waits for the child; returns (exit status or -signal, stdout, stderr).
        @discardableResult
        func wait() -> (status: Int32, out: String, err: String) {
            if stdinFD >= 0 { close(stdinFD); stdinFD = -1 }
            let o = drain(stdoutFD), e = drain(stderrFD)
            var st: Int32 = 0
            while waitpid(pid, &st, 0) < 0 && errno == EINTR {}
            let status = (st & 0x7F) == 0 ? (st >> 8) & 0xFF : -(st & 0x7F)
            return (status, o, e)
        }

        private func drain(_ fd: Int32) -> String {
            var all: [UInt8] = []
            var buf = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress!, 4096) }
                if n <= 0 { break }
                all += buf[0..<n]
            }
            close(fd)
            return String(decoding: all, as: UTF8.self)
        }
    }

    /// Runs a shell pipeline (for streaming hostile files through stock zstd without holding them).
    @discardableResult
    static func sh(_ script: String) -> (status: Int32, out: String, err: String) {
        Child("/bin/bash", ["-c", script]).wait()
    }

    /// Every event of a trace.
    static func readAll(_ path: String, limits: ReaderLimits = .standard) throws -> (records: [Record], problems: [TraceProblem]) {
        let reader = try TraceReader(path: path, limits: limits)
        var records: [Record] = [], problems: [TraceProblem] = []
        while let e = reader.next() {
            switch e {
            case .record(let r): records.append(r)
            case .problem(let p): problems.append(p)
            }
        }
        return (records, problems)
    }

    /// The harness's `read` mode: a fresh process reads the trace; returns its summary line fields.
    static func readInChild(_ path: String, limits: ReaderLimits? = nil) -> (records: Int, problems: Int, kinds: [String], peakKB: Int) {
        var args = ["read", path]
        if let l = limits { args += [String(l.maxLineBytes), String(l.holdBytes), String(l.maxWindowLog)] }
        let r = Child(harness, args).wait()
        let f = r.out.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        guard r.status == 0, f.count == 8 else { return (-1, -1, [r.err], -1) }
        return (Int(f[1])!, Int(f[3])!, f[5] == "-" ? [] : f[5].split(separator: ",").map(String.init), Int(f[7])!)
    }
}
