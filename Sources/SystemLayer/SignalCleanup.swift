#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Removes the process's own temporary files when a catchable signal ends it (SIGINT, SIGTERM, SIGHUP),
/// then exits with 128 + the signal's number.
///
/// Async-signal-safe: the handler only `write`s the signal's number to a pipe (the self-pipe pattern).
/// A thread started by `install()` waits on that pipe; it takes the registry's lock as any thread may,
/// `unlink`s every path registered, and calls `_exit`. So the handler touches no lock and no allocation,
/// and the registry is plain locked state. Library code registers a temporary before it creates it and
/// unregisters it once renamed or removed (`AtomicFile`); only an executable installs the handler.
public enum SignalCleanup {
    private static let lock = Lock()
    nonisolated(unsafe) private static var paths: Set<String> = []
    nonisolated(unsafe) private static var thread: JoinableThread?

    /// The signals that remove the temporaries and end the process.
    public static let signals: [Signal] = [.interrupt, .terminate, .hangup]

    /// Registers a temporary to remove if a signal ends the process (before it is created: removing a
    /// name that was never created does nothing).
    public static func register(_ path: String) {
        lock.withLock { _ = paths.insert(path) }
    }

    /// Forgets a temporary that was renamed into place or removed.
    public static func unregister(_ path: String) {
        lock.withLock { _ = paths.remove(path) }
    }

    /// How many temporaries are registered now.
    public static var registeredCount: Int { lock.withLock { paths.count } }

    /// Installs the handlers (once; later calls do nothing). False when the pipe or the thread cannot be
    /// made: the signals then keep their default action.
    @discardableResult
    public static func install() -> Bool {
        lock.withLock {
            if thread != nil { return true }
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { return false }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            let readEnd = fds[0]
            guard let t = JoinableThread({ waitAndClean(readEnd) }) else {
                _ = close(fds[0])
                _ = close(fds[1])
                return false
            }
            thread = t
            signalPipe = fds[1]
            for s in signals {
                // A signal ignored when the process started (a background job, `nohup`) stays ignored.
                let previous = signal(s.rawValue, cleanupHandler)
                if unsafeBitCast(previous, to: Int.self) == 1 /* SIG_IGN */ { _ = signal(s.rawValue, previous) }
            }
            return true
        }
    }

    /// The thread's loop: the first signal's number comes through the pipe; every registered path is
    /// unlinked, and the process ends.
    private static func waitAndClean(_ fd: Int32) {
        var byte: UInt8 = 0
        while true {
            let n = read(fd, &byte, 1)
            if n == 1 { break }
            if n < 0 && errno == EINTR { continue }
            return
        }
        // Held until the end: no temporary is registered after the list is taken.
        lock.withLock {
            for p in paths { _ = unlink(p) }
            _exit(128 + Int32(byte))
        }
    }
}

/// The write end of the self-pipe, or -1 before `install()` (a constant initialiser: no lazy
/// initialisation runs in the handler).
nonisolated(unsafe) private var signalPipe: Int32 = -1

/// The signal handler: async-signal-safe (one `write`, nothing else).
private let cleanupHandler: @convention(c) (Int32) -> Void = { sig in
    var byte = UInt8(truncatingIfNeeded: sig)
    _ = write(signalPipe, &byte, 1)
}

extension Signal {
    /// SIGHUP: the terminal went away.
    public static let hangup = Signal(rawValue: SIGHUP)
}
