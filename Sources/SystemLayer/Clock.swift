#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The monotonic clock (never set back, unlike the wall clock) and sleeping.
public enum Clock {
    /// Nanoseconds since an arbitrary fixed point (CLOCK_MONOTONIC). Inlinable: a recorder's caller
    /// reads it once per record, and a call through layers of modules costs as much as the reading.
    @inlinable
    public static func monotonicNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Whole seconds since 1970 by the wall clock (for comparing with file times, never for spans).
    public static func wallSeconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec)
    }

    /// CPU seconds the whole process has used so far.
    public static func processCPUSeconds() -> Double { cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) }

    /// CPU seconds the calling thread has used so far.
    public static func threadCPUSeconds() -> Double { cpuSeconds(CLOCK_THREAD_CPUTIME_ID) }

    private static func cpuSeconds(_ clock: clockid_t) -> Double {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Seconds since an arbitrary fixed point, for measuring spans.
    public static func monotonicSeconds() -> Double {
        Double(monotonicNanoseconds()) / 1e9
    }

    /// Sleeps at least `nanoseconds`, resuming after a signal until the time has passed.
    public static func sleep(nanoseconds: UInt64) {
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && Errno.current == .interrupted {
            request = remaining
        }
    }
}
