import Foundation
import SystemLayer

// Every lock, condition, clock and thread the recorder uses is defined here: the mutex is the system
// layer's, the condition, thread and clocks Foundation's. Nothing here uses the Synchronization
// module: SDKs that embed the recorder support iOS versions older than 18.

/// A mutual-exclusion lock (the system layer's).
final class RecorderLock: @unchecked Sendable {
    private let lock = Lock()

    /// Runs `body` holding the lock.
    @inline(__always)
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock(body)
    }
}

/// A lock with a condition a thread can wait on: the recorder's queue and its writer thread.
final class RecorderCondition: @unchecked Sendable {
    private let condition = NSCondition()

    /// Takes the lock.
    @inline(__always) func lock() { condition.lock() }
    /// Releases the lock.
    @inline(__always) func unlock() { condition.unlock() }
    /// Wakes every waiting thread; call holding the lock.
    @inline(__always) func broadcast() { condition.broadcast() }

    /// Waits (holding the lock) until `done()` holds, for at most `seconds` in all; false on timeout.
    func wait(until done: () -> Bool, seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: max(0, seconds))
        while !done() {
            if !condition.wait(until: deadline) { return done() }
        }
        return true
    }

    /// Waits (holding the lock) until signalled, or for at most `seconds` when given; false on timeout.
    @discardableResult
    func wait(seconds: Double?) -> Bool {
        guard let seconds else {
            condition.wait()
            return true
        }
        return condition.wait(until: Date(timeIntervalSinceNow: max(0, seconds)))
    }
}

/// Where the recorder reads the time: a monotonic clock for `t`, and the wall clock for file names,
/// `startedAt` and continuing a session after a restart. Tests and simulations inject `ManualClock`.
public protocol RecorderClock: Sendable {
    /// Nanoseconds from an arbitrary origin; never goes backwards.
    func monotonicNanoseconds() -> UInt64
    /// Milliseconds since 1970-01-01T00:00:00Z (may jump when the user changes the time).
    func wallMilliseconds() -> Int64
}

/// The system's clocks: `DispatchTime` (on Apple platforms it stops while the device sleeps; an app in
/// a call keeps the device awake) and `Date`.
public struct SystemClock: RecorderClock {
    /// Creates the system clock.
    public init() {}
    /// `DispatchTime.now()`, in nanoseconds.
    public func monotonicNanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
    /// `Date()`, in milliseconds since 1970.
    public func wallMilliseconds() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
}

/// A clock that moves only when told to: both readings advance together.
public final class ManualClock: RecorderClock, @unchecked Sendable {
    private let lock = RecorderLock()
    private var nanos: UInt64
    private var wall: Int64

    /// A clock at `monotonicMilliseconds` on its monotonic scale and `wallMilliseconds` on the wall.
    public init(monotonicMilliseconds: Int64 = 1_000_000, wallMilliseconds: Int64 = 1_764_410_400_000) {
        nanos = UInt64(monotonicMilliseconds) * 1_000_000
        wall = wallMilliseconds
    }

    /// Moves both readings forward by `milliseconds`.
    public func advance(milliseconds: Int64) {
        precondition(milliseconds >= 0, "a manual clock never goes backwards")
        lock.withLock {
            nanos += UInt64(milliseconds) * 1_000_000
            wall += milliseconds
        }
    }

    /// The current monotonic reading, in milliseconds.
    public var monotonicMilliseconds: Int64 { lock.withLock { Int64(nanos / 1_000_000) } }

    public func monotonicNanoseconds() -> UInt64 { lock.withLock { nanos } }
    public func wallMilliseconds() -> Int64 { lock.withLock { wall } }
}

/// Starts the writer thread, at utility priority: recording must never compete with audio.
func startRecorderThread(name: String, _ body: @escaping @Sendable () -> Void) {
    let thread = Thread(block: body)
    thread.name = name
    thread.qualityOfService = .utility
    thread.start()
}
