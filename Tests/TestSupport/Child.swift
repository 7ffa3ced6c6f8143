import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`, for tests that talk to it while it runs, stop it
/// with a signal, or race several against each other. Standard output and error are pipes; standard
/// input is one when asked for. A child that prints something of its own before its output proper
/// (a test child, see `TestChild`) marks where that starts, and both streams are read from there.
package final class Child {
    /// The process id (for `kill`).
    package let pid: pid_t
    private let stdoutFD: Int32
    private let stderrFD: Int32
    private var stdinFD: Int32 = -1
    private var pending: [UInt8] = []
    /// The line before the child's own output, until it has been read on standard output.
    private var marker: String?
    private let errMarker: String?

    /// Starts `exe args` with `environment` added to this process's; with `stdinPipe` the child
    /// reads what `write` sends until `wait` closes it. With `skippingTo`, everything up to and
    /// including the first line equal to it is dropped from both streams.
    package init(_ exe: String, _ args: [String], stdinPipe: Bool = false, environment: [String: String] = [:],
                skippingTo marker: String? = nil) {
        self.marker = marker
        errMarker = marker
        var out: [Int32] = [0, 0], err: [Int32] = [0, 0], inp: [Int32] = [0, 0]
        precondition(pipe(&out) == 0 && pipe(&err) == 0)
        if stdinPipe { precondition(pipe(&inp) == 0) }
        // No other child may inherit these ends (a held write end would keep stdin from ending).
        for fd in out + err + (stdinPipe ? inp : []) { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        if stdinPipe { posix_spawn_file_actions_adddup2(&actions, inp[0], 0) }
        let argv = ([exe] + args).map { strdup($0) } + [nil]
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) }; posix_spawn_file_actions_destroy(&actions) }
        var p: pid_t = 0
        let rc = posix_spawn(&p, exe, &actions, nil, argv, envp)
        precondition(rc == 0, "cannot start \(exe): \(rc)")
        pid = p
        close(out[1]); close(err[1])
        stdoutFD = out[0]
        stderrFD = err[0]
        if stdinPipe { close(inp[0]); stdinFD = inp[1] }
    }

    /// Reads one line from the child's standard output, waiting for it; "" when the output ends first.
    package func readLine() -> String {
        while let marker {
            let line = rawLine()
            if line == nil || line == marker { self.marker = nil }
            if line == nil { return "" }
        }
        return rawLine() ?? ""
    }

    /// The next line of standard output as written, or what is left (nil when nothing is) at its end.
    private func rawLine() -> String? {
        var b: UInt8 = 0
        while true {
            if let nl = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<nl], as: UTF8.self)
                pending.removeSubrange(...nl)
                return line
            }
            guard read(stdoutFD, &b, 1) == 1 else {
                defer { pending.removeAll() }
                return pending.isEmpty ? nil : String(decoding: pending, as: UTF8.self)
            }
            pending.append(b)
        }
    }

    /// Sends `signal` to the child.
    package func kill(_ signal: Int32) {
        #if canImport(Glibc)
        _ = Glibc.kill(pid, signal)
        #else
        _ = Darwin.kill(pid, signal)
        #endif
    }

    /// Closes the child's standard input, waits for it to end and returns its exit status (or
    /// minus the signal that ended it) with the rest of its output.
    @discardableResult
    package func wait() -> (status: Int32, out: String, err: String) {
        if stdinFD >= 0 { close(stdinFD); stdinFD = -1 }
        final class Box: @unchecked Sendable { var text = "" }
        let errText = Box()
        let group = DispatchGroup()
        let errFD = stderrFD
        group.enter()
        DispatchQueue.global().async { errText.text = Self.drain(errFD); group.leave() }
        var o = String(decoding: pending, as: UTF8.self) + Self.drain(stdoutFD)
        pending.removeAll()
        group.wait()
        if let marker { o = Self.after(marker, in: o) }
        marker = nil
        if let errMarker { errText.text = Self.after(errMarker, in: errText.text) }
        var st: Int32 = 0
        while waitpid(pid, &st, 0) < 0 && errno == EINTR {}
        let status = (st & 0x7F) == 0 ? (st >> 8) & 0xFF : -(st & 0x7F)
        return (status, o, errText.text)
    }

    /// What follows the first line `marker` in `text` (all of it when the marker is missing: a
    /// child that failed before it marked its output shows why).
    private static func after(_ marker: String, in text: String) -> String {
        guard let r = text.range(of: marker + "\n") else { return text }
        return String(text[r.upperBound...])
    }

    private static func drain(_ fd: Int32) -> String {
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
