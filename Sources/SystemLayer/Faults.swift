#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The fault hook is for tests: it is SPI (`@_spi(FaultInjection) import SystemLayer`), and only debug
// builds consult it, so a release build (an SDK's, the tool's) has no fault hook on its write path.

/// What an injected fault does to one write or sync.
@_spi(FaultInjection)
public enum Fault: Sendable, Equatable {
    /// The call fails with this error and writes nothing.
    case fail(Errno)
    /// The write takes at most this many bytes (a short write; 0 takes none).
    case shortWrite(Int)
    /// The call waits this long, then goes ahead (a slow disk).
    case delay(nanoseconds: UInt64)
}

/// Decides which writes and syncs fail or stall, and how much space is free, so tests can simulate a
/// full, slow or locked disk.
///
/// Installed process-wide in `SystemFaults.injector`; in a debug build every `write` and `fsync` of this
/// module asks it first (a release build never does). Calls are numbered from 1 since the injector was created.
@_spi(FaultInjection)
public final class FaultInjector: @unchecked Sendable {
    /// One write about to be made.
    public struct WriteAttempt: Sendable {
        /// 1 for the first write asked about, then 2, 3…
        public var number: Int
        /// The descriptor written to.
        public var descriptor: FileDescriptor
        /// Bytes the caller wants written.
        public var count: Int
    }

    /// A change a call made on the disk, in the order they were made: what a crash harness may stop after.
    public enum Step: Sendable, Equatable {
        /// A write went ahead (some bytes reached the file).
        case written
        /// A rename took effect.
        case renamed
        /// A file was removed.
        case removed
    }

    private let lock = Lock()
    private var writes = 0
    private var syncs = 0
    private var steps = 0
    private let onWrite: @Sendable (WriteAttempt) -> Fault?
    private let onSync: @Sendable (_ number: Int, _ descriptor: FileDescriptor) -> Fault?
    private let onWritten: @Sendable (WriteAttempt, _ written: Int) -> Void
    private let onStep: @Sendable (_ number: Int, _ step: Step) -> Void
    private let onAvailable: @Sendable (_ path: String) -> Int64?

    /// An injector asking `write` about each write and `sync` about each fsync (nil: no fault), telling
    /// `written` how many bytes each write that went ahead took, and `step` about each change made on the
    /// disk (a write, a rename, a removal), numbered from 1 (a crash harness stops at either).
    public init(write: @escaping @Sendable (WriteAttempt) -> Fault? = { _ in nil },
                sync: @escaping @Sendable (_ number: Int, _ descriptor: FileDescriptor) -> Fault? = { _, _ in nil },
                written: @escaping @Sendable (WriteAttempt, _ written: Int) -> Void = { _, _ in },
                step: @escaping @Sendable (_ number: Int, _ step: Step) -> Void = { _, _ in },
                available: @escaping @Sendable (_ path: String) -> Int64? = { _ in nil }) {
        onWrite = write
        onSync = sync
        onWritten = written
        onStep = step
        onAvailable = available
    }

    /// The free space `FileSystem.availableBytes` reports for `path`, or nil for the real figure.
    func availableBytes(_ path: String) -> Int64? { onAvailable(path) }

    /// Write attempts seen so far.
    public var writeCount: Int { lock.withLock { writes } }

    /// Changes made on the disk so far (writes that went ahead, renames, removals).
    public var stepCount: Int { lock.withLock { steps } }

    func didStep(_ step: Step) {
        let number = lock.withLock { () -> Int in
            steps += 1
            return steps
        }
        onStep(number, step)
    }

    func fault(forWriteTo descriptor: FileDescriptor, count: Int) -> Fault? {
        lock.withLock {
            writes += 1
            return onWrite(WriteAttempt(number: writes, descriptor: descriptor, count: count))
        }
    }

    func didWrite(to descriptor: FileDescriptor, count: Int, written: Int) {
        let attempt = lock.withLock { WriteAttempt(number: writes, descriptor: descriptor, count: count) }
        onWritten(attempt, written)
        if written > 0 { didStep(.written) }
    }

    func fault(forSyncOf descriptor: FileDescriptor) -> Fault? {
        lock.withLock {
            syncs += 1
            return onSync(syncs, descriptor)
        }
    }

    /// The `n`th write fails with `errno` (ENOSPC by default); the others go ahead.
    public static func failingWrite(number n: Int, with errno: Errno = .noSpace) -> FaultInjector {
        FaultInjector(write: { $0.number == n ? .fail(errno) : nil })
    }

    /// The `n`th fsync fails with `errno` (EIO by default).
    public static func failingSync(number n: Int, with errno: Errno = .ioError) -> FaultInjector {
        FaultInjector(sync: { number, _ in number == n ? .fail(errno) : nil })
    }

    /// Every write waits `nanoseconds` first.
    public static func delayingWrites(nanoseconds: UInt64) -> FaultInjector {
        FaultInjector(write: { _ in .delay(nanoseconds: nanoseconds) })
    }

    /// The first write to a file (not standard input, output or error) while a temporary is registered
    /// for removal (`SignalCleanup`) says so on standard error, `stalled writing a temporary`, and waits
    /// there for ever: a test then sends a signal while a command is writing its output, not a moment
    /// before or after (no test may depend on the machine's speed).
    public static func stallingAtTheFirstWriteToATemporary() -> FaultInjector {
        FaultInjector(write: { attempt in
            guard attempt.descriptor.rawValue > 2, SignalCleanup.registeredCount > 0 else { return nil }
            // Straight to the descriptor: a write through this module would ask this injector again.
            let note = FaultWords.stalledWritingATemporary
            _ = systemWrite(2, note.utf8Start, note.utf8CodeUnitCount)
            while true { Clock.sleep(nanoseconds: 1_000_000_000) }
        })
    }

    /// A disk with room for `bytes` more bytes: writes go through until then (the last one
    /// short), and every write after fails with ENOSPC.
    public static func diskFull(after bytes: Int) -> FaultInjector {
        // Only touched under the injector's lock.
        final class Budget: @unchecked Sendable { var left: Int; init(_ n: Int) { left = n } }
        let budget = Budget(bytes)
        return FaultInjector(write: { attempt in
            if budget.left == 0 { return .fail(.noSpace) }
            let take = min(attempt.count, budget.left)
            budget.left -= take
            return take < attempt.count ? .shortWrite(take) : nil
        })
    }
}

/// The process-wide fault hook: nil (no faults, one load per call) unless a test installs one; consulted
/// only by debug builds.
@_spi(FaultInjection)
public enum SystemFaults {
    /// The injector every write and fsync of this module asks; set only while no other thread writes.
    nonisolated(unsafe) public static var injector: FaultInjector?

    /// Runs `body` with `injector` installed, and removes it afterwards.
    public static func with<T>(_ injector: FaultInjector, _ body: () throws -> T) rethrows -> T {
        let previous = Self.injector
        Self.injector = injector
        defer { Self.injector = previous }
        return try body()
    }
}

/// `write(2)` itself, past the fault hook.
private func systemWrite(_ fd: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int { write(fd, bytes, count) }
