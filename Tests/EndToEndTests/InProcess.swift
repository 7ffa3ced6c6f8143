import CommandLineKit
import Foundation
import rtctrace
import SystemLayer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CLI {
    /// Runs `rtctrace args` inside this process, through the dispatcher `main` runs, and returns what
    /// `run` returns for the built executable: the exit code, and standard output and error, kept in
    /// memory. The command's environment is this process's outside CI mode with `env` added; `stdin`
    /// reaches `-` through a pipe (no input: `/dev/null`); `check`'s workers are the built `rtctrace`.
    /// For what needs a process of its own (signals, descriptors, a killed child, memory, a working
    /// folder, a terminal), `run`.
    @discardableResult
    package static func runInProcess(_ args: [String], env: [String: String] = [:], stdin: Data? = nil) -> Result {
        // These hooks end or stop the whole process: a command that uses them runs in a process of its own (`run`).
        precondition(env["RTCTRACE_FAULT_KILL_TRIAGE"] == nil && env["RTCTRACE_FAULT_STALL_TEMPORARY"] == nil,
                     "a fault hook that kills or stops the process needs CLI.run")
        var environment = ProcessInfo.processInfo.environment
        environment["CI"] = nil
        for (k, v) in env { environment[k] = v }
        let input = StandardInput(stdin)
        defer { input.close() }
        let context = CommandContext.inMemory(input: input.descriptor, environment: environment, executable: binary)
        let code = Dispatcher(commands: Commands.all).run(args, in: context)
        return Result(status: code.rawValue, out: String(decoding: context.out.written, as: UTF8.self),
                      err: String(decoding: context.err.written, as: UTF8.self))
    }
}

/// What a command run in-process reads as its standard input: `/dev/null`, or bytes written into a
/// pipe by a thread of their own (so that a command that reads little of a large input never blocks
/// the test).
private final class StandardInput: @unchecked Sendable {
    private let read: Int32
    private var writer: Thread?
    private let done = DispatchSemaphore(value: 0)

    var descriptor: FileDescriptor { FileDescriptor(rawValue: read) }

    init(_ data: Data?) {
        guard let data else {
            read = open("/dev/null", O_RDONLY | O_CLOEXEC)
            return
        }
        // A write to a pipe the command closed early fails with EPIPE instead of ending the test process.
        signal(SIGPIPE, SIG_IGN)
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0)
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        read = fds[0]
        let writeEnd = fds[1], done = done
        let t = Thread {
            data.withUnsafeBytes { p in
                var at = 0
                while at < p.count {
                    let n = write(writeEnd, p.baseAddress! + at, p.count - at)
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { break }
                    at += n
                }
            }
            closeDescriptor(writeEnd)
            done.signal()
        }
        writer = t
        t.start()
    }

    /// Closes the read end (a writer still writing then stops) and waits for the writer.
    func close() {
        closeDescriptor(read)
        if writer != nil { done.wait() }
    }
}

private func closeDescriptor(_ fd: Int32) { _ = close(fd) }
