import Foundation
import SystemLayer

// The recorder's clocks and its thread. Locks and conditions are the system layer's (pthread-based on
// every platform; nothing here uses the Synchronization module: SDKs that embed the recorder support
// iOS versions older than 18).

/// Where the recorder reads the time: a monotonic clock for `t`, and the wall clock for file names,
/// `startedAt` and continuing a session after a restart. Tests and simulations inject `ManualClock`.
public protocol RecorderClock: Sendable {
    /// Nanoseconds from an arbitrary origin; never goes backwards.
    func monotonicNanoseconds() -> UInt64
    /// Milliseconds since 1970-01-01T00:00:00Z (may jump when the user changes the time).
    func wallMilliseconds() -> Int64
}

/// The system's clocks: `CLOCK_MONOTONIC` (on Apple platforms it stops while the device sleeps; an app
/// in a call keeps the device awake) and `Date`.
public struct SystemClock: RecorderClock {
    /// Creates the system clock.
    public init() {}
    /// The monotonic clock, in nanoseconds.
    public func monotonicNanoseconds() -> UInt64 { Clock.monotonicNanoseconds() }
    /// `Date()`, in milliseconds since 1970.
    public func wallMilliseconds() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
}

/// A clock the writer can set an alarm on instead of sleeping for a span of real time: the manual
/// clock, whose time moves only when told to, wakes the writer when it passes the writer's deadline.
protocol AlarmClock: AnyObject {
    /// Sets `owner`'s alarm to `due` (nil cancels it), replacing the one before; true when `due` has
    /// passed already (nothing is set then). `ring` is called, with no lock held, once the time reaches it.
    func setAlarm(owner: ObjectIdentifier, due: UInt64?, ring: @escaping @Sendable () -> Void) -> Bool
}

/// A clock that moves only when told to: both readings advance together, and a recorder's writer
/// sleeping until a time wakes when `advance` reaches it (never earlier), as it would in real time.
public final class ManualClock: RecorderClock, AlarmClock, @unchecked Sendable {
    private let lock = Lock()
    private var nanos: UInt64
    private var wall: Int64
    private var alarms: [ObjectIdentifier: (due: UInt64, ring: @Sendable () -> Void)] = [:]

    /// A clock at `monotonicMilliseconds` on its monotonic scale and `wallMilliseconds` on the wall.
    public init(monotonicMilliseconds: Int64 = 1_000_000, wallMilliseconds: Int64 = 1_764_410_400_000) {
        nanos = UInt64(monotonicMilliseconds) * 1_000_000
        wall = wallMilliseconds
    }

    /// Moves both readings forward by `milliseconds`, and rings the alarms that time reaches.
    public func advance(milliseconds: Int64) {
        precondition(milliseconds >= 0, "a manual clock never goes backwards")
        let due: [@Sendable () -> Void] = lock.withLock {
            nanos += UInt64(milliseconds) * 1_000_000
            wall += milliseconds
            let ringing = alarms.filter { $0.value.due <= nanos }
            for key in ringing.keys { alarms[key] = nil }
            return ringing.values.map(\.ring)
        }
        for ring in due { ring() }
    }

    /// The current monotonic reading, in milliseconds.
    public var monotonicMilliseconds: Int64 { lock.withLock { Int64(nanos / 1_000_000) } }

    public func monotonicNanoseconds() -> UInt64 { lock.withLock { nanos } }
    public func wallMilliseconds() -> Int64 { lock.withLock { wall } }

    func setAlarm(owner: ObjectIdentifier, due: UInt64?, ring: @escaping @Sendable () -> Void) -> Bool {
        lock.withLock {
            guard let due else {
                alarms[owner] = nil
                return false
            }
            if due <= nanos {
                alarms[owner] = nil
                return true
            }
            alarms[owner] = (due, ring)
            return false
        }
    }
}

/// Starts the writer thread, at utility priority: recording must never compete with audio.
func startRecorderThread(name: String, _ body: @escaping @Sendable () -> Void) {
    let thread = Thread(block: body)
    thread.name = name
    thread.qualityOfService = .utility
    thread.start()
}
