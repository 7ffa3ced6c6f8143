#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The running process: its id, environment, processors, signals and exit.
public enum CurrentProcess {
    /// The process id.
    public static var id: Int32 { getpid() }

    /// Whether a process with id `pid` runs on this machine (`kill(pid, 0)`: EPERM means it runs as
    /// another user).
    public static func isRunning(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// How many more file descriptors the process can open, counted up to `atMost` (by opening them:
    /// the limit alone does not say how many are in use), and the limit (`ulimit -n`).
    public static func freeDescriptors(atMost: Int) -> (free: Int, limit: Int) {
        var rl = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        let limit = getrlimit(resource, &rl) == 0 ? Int(clamping: rl.rlim_cur) : -1
        var opened: [Int32] = []
        defer { for fd in opened { _ = close(fd) } }
        let first = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard first >= 0 else { return (0, limit) }
        opened.append(first)
        while opened.count < atMost {
            let fd = fcntl(first, F_DUPFD_CLOEXEC, 0)
            guard fd >= 0 else { break }
            opened.append(fd)
        }
        return (opened.count, limit)
    }

    /// The command line as the process got it, each argument as `PathName` holds names: one that is
    /// not UTF-8 (a file name in another encoding) keeps its bytes (`CommandLine.arguments` replaces
    /// them with U+FFFD, so such a file could not be named).
    public static var arguments: [String] {
        (0..<Int(CommandLine.argc)).map { i in
            guard let p = CommandLine.unsafeArgv[i] else { return "" }
            return PathName.decode(UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p)))
        }
    }

    /// An environment variable's value, or nil when it is not set.
    public static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Every environment variable, by name (a line without `=` is left out; of two with one name, the first).
    public static var environmentVariables: [String: String] {
        #if canImport(Darwin)
        var entry: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = _NSGetEnviron().pointee
        #else
        var entry: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        #endif
        var variables: [String: String] = [:]
        while let p = entry?.pointee {
            let text = String(cString: p)
            if let eq = text.firstIndex(of: "="), variables[String(text[..<eq])] == nil {
                variables[String(text[..<eq])] = String(text[text.index(after: eq)...])
            }
            entry = entry?.advanced(by: 1)
        }
        return variables
    }

    /// Processors online now (at least 1).
    public static var activeProcessorCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// Ends the process with `status`; for executables only (libraries never exit).
    public static func exit(_ status: Int32) -> Never {
        #if canImport(Glibc)
        Glibc.exit(status)
        #elseif canImport(Musl)
        Musl.exit(status)
        #elseif canImport(Darwin)
        Darwin.exit(status)
        #endif
    }
}

/// A signal a process can be sent.
public struct Signal: RawRepresentable, Hashable, Sendable {
    /// The platform's signal number.
    public let rawValue: Int32
    /// Wraps a signal number.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// SIGKILL: ends the process at once, no handler runs.
    public static let kill = Signal(rawValue: SIGKILL)
    /// SIGTERM: asks the process to end.
    public static let terminate = Signal(rawValue: SIGTERM)
    /// SIGINT: what Ctrl-C sends.
    public static let interrupt = Signal(rawValue: SIGINT)

    /// Sends the signal to process `pid`.
    public func send(to pid: Int32) throws(SystemError) {
        _ = try checked("kill") { system_kill(pid, rawValue) }
    }
}

@inline(__always) private func system_kill(_ pid: Int32, _ sig: Int32) -> Int32 { kill(pid, sig) }
