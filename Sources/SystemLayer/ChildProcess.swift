#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process whose standard output is read back: how a command runs work that might trap
/// (a replay) without losing everything else it did.
public struct ChildProcess: Sendable {
    /// How a child ended.
    public enum Ending: Equatable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it (a trap is SIGILL or SIGTRAP; a kill SIGKILL).
        case signalled(Int32)
    }

    /// Runs `executable` with `arguments` (standard input from /dev/null, standard error inherited) in
    /// `environment` (nil: this process's), collects at most `limit` bytes of its standard output, and
    /// waits for it to end.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           limit: Int = 1 << 30) throws(SystemError) -> (Ending, [UInt8]) {
        var pipeEnds: [Int32] = [0, 0]
        _ = try checked("pipe") { pipe(&pipeEnds) }
        let reader = FileDescriptor(rawValue: pipeEnds[0]), writer = FileDescriptor(rawValue: pipeEnds[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writer.rawValue, 1)
        posix_spawn_file_actions_addclose(&actions, reader.rawValue)
        posix_spawn_file_actions_addclose(&actions, writer.rawValue)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { a in PathName.withCString(a) { strdup($0) } } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { e in e.sorted { $0.key < $1.key }.map { strdup($0.key + "=" + $0.value) } + [nil] }
        defer { for p in argv + (envp ?? []) { free(p) } }
        var pid: pid_t = 0
        let status = envp.map { envp in envp.withUnsafeBufferPointer { posix_spawn(&pid, executable, &actions, nil, argv, $0.baseAddress) } }
            ?? posix_spawn(&pid, executable, &actions, nil, argv, environ)
        try? writer.close()
        guard status == 0 else {
            try? reader.close()
            throw SystemError(Errno(rawValue: status), call: "posix_spawn", path: executable)
        }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = (try? chunk.withUnsafeMutableBytes { try reader.read(into: $0) }) ?? 0
            if n <= 0 { break }
            if output.count < limit { output.append(contentsOf: chunk[0..<min(n, limit - output.count)]) }
        }
        try? reader.close()
        var wstatus: Int32 = 0
        while waitpid(pid, &wstatus, 0) == -1 && Errno.current == .interrupted {}
        // WIFEXITED / WEXITSTATUS / WTERMSIG, spelled out (they are macros in C).
        let signal = wstatus & 0x7F
        return (signal == 0 ? .exited((wstatus >> 8) & 0xFF) : .signalled(signal), output)
    }

    /// The running executable's path, for running another instance of it.
    public static var currentExecutable: String {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if n > 0 { return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        #elseif canImport(Darwin)
        var size: UInt32 = 4096
        var buffer = [CChar](repeating: 0, count: Int(size))
        if _NSGetExecutablePath(&buffer, &size) == 0 { return String(cString: buffer) }
        #endif
        return CommandLine.arguments.first ?? "rtctrace"
    }
}
