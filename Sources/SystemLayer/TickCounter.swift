#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
// Apple systems read their counter through Darwin (`mach_continuous_time`), every other one in C.
#if !canImport(Darwin)
import CTickCounter
#endif

/// The processor's counter of time, where it runs at one constant rate on every core: a reading costs
/// one instruction (Linux on x86-64 and arm64) or one call that reads it (`mach_continuous_time` on
/// Apple systems), where the monotonic clock (`Clock.monotonicNanoseconds`) also takes a sequence
/// lock, a fence and a conversion. Its unit is the counter's own; `TickCalibration` turns readings
/// into the monotonic clock's nanoseconds after the fact.
public enum TickCounter {
    /// The counter now, in its own unit. Inlinable: a recorder's caller reads it once per record.
    @inlinable @inline(__always)
    public static func now() -> UInt64 {
        #if canImport(Darwin)
        return mach_continuous_time()
        #else
        return rtc_tick_counter()
        #endif
    }

    /// Whether the counter can stand in for the monotonic clock here: it runs at a constant rate on
    /// every core (Apple systems; arm64's generic timer; an invariant time-stamp counter on x86-64 that
    /// the kernel itself keeps time with). Decided once per process.
    public static let isUsable: Bool = {
        #if canImport(Darwin)
        return true
        #elseif arch(x86_64)
        // The kernel stops trusting the time-stamp counter when it finds cores out of step (it then
        // keeps time with another clock source): trust it only while the kernel does.
        guard rtc_tick_counter_invariant() != 0 else { return false }
        guard let file = try? OpenFile("/sys/devices/system/clocksource/clocksource0/current_clocksource", .readOnly),
              let bytes = try? file.readAll(limit: 64) else { return false }
        return String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace).first == "tsc"
        #elseif arch(arm64)
        return rtc_tick_counter_invariant() != 0
        #else
        return false
        #endif
    }()

    /// A counter reading and the monotonic clock's at the same moment: the clock read between two
    /// counter readings, the tightest of a few tries (a thread descheduled in between widens them).
    public static func pair() -> (ticks: UInt64, nanos: UInt64) {
        var best: (ticks: UInt64, nanos: UInt64, width: UInt64)?
        for _ in 0..<4 {
            let before = now()
            let nanos = Clock.monotonicNanoseconds()
            let after = now()
            guard after >= before else { continue }
            let width = after - before
            if best == nil || width < best!.width { best = (before + width / 2, nanos, width) }
        }
        if let best { return (best.ticks, best.nanos) }
        return (now(), Clock.monotonicNanoseconds())
    }
}

/// Turns counter readings into the monotonic clock's nanoseconds: a line through pairs of readings
/// taken at moments the owner chooses (`anchor()`), one segment between each two, so that the result
/// follows the clock's own rate as it is adjusted and never goes backwards as the counter goes forward.
/// A reading between two anchors is placed on the segment between them (its error is the pairs', tens
/// of nanoseconds); one before the oldest kept or after the newest is extended at the rate over every
/// anchor since the first. Used by one thread (or under one lock).
public struct TickCalibration: Sendable {
    /// The anchors kept, oldest first; counter readings and nanoseconds both strictly increasing.
    public private(set) var anchors: [(ticks: UInt64, nanos: UInt64)] = []
    /// The first anchor, kept for the long-run rate.
    private var first: (ticks: UInt64, nanos: UInt64)?
    /// At most this many anchors are kept (the oldest go first).
    public let capacity: Int

    /// Calibration with no anchor yet; keeps at most `capacity` anchors.
    public init(capacity: Int = 16) {
        self.capacity = max(2, capacity)
    }

    /// Adds the pair read now (`TickCounter.pair()`).
    public mutating func anchor() {
        let p = TickCounter.pair()
        add(ticks: p.ticks, nanos: p.nanos)
    }

    /// Adds an anchor; one that is not later than the newest in both readings is left out (a segment
    /// must rise in both).
    public mutating func add(ticks: UInt64, nanos: UInt64) {
        if let last = anchors.last, ticks <= last.ticks || nanos <= last.nanos { return }
        if first == nil { first = (ticks, nanos) }
        if anchors.count == capacity { anchors.removeFirst() }
        anchors.append((ticks, nanos))
    }

    /// Nanoseconds per counter tick over every anchor since the first (1 until there are two).
    public var rate: Double {
        guard let first, let last = anchors.last, last.ticks > first.ticks else { return 1 }
        return Double(last.nanos - first.nanos) / Double(last.ticks - first.ticks)
    }

    /// The monotonic clock's nanoseconds at counter reading `ticks` (0 before any anchor).
    public func nanoseconds(_ ticks: UInt64) -> UInt64 {
        guard let newest = anchors.last else { return 0 }
        if ticks >= newest.ticks { return newest.nanos &+ UInt64(Double(ticks - newest.ticks) * rate) }
        let oldest = anchors[0]
        if ticks < oldest.ticks {
            let back = UInt64(Double(oldest.ticks - ticks) * rate)
            return back < oldest.nanos ? oldest.nanos - back : 0
        }
        // The segment holding it: usually the newest.
        var i = anchors.count - 2
        while anchors[i].ticks > ticks { i -= 1 }
        let a = anchors[i], b = anchors[i + 1]
        let product = (ticks - a.ticks).multipliedFullWidth(by: b.nanos - a.nanos)
        // Less than the segment's span in nanoseconds: the quotient fits.
        let share = (b.ticks - a.ticks).dividingFullWidth(product).quotient
        return a.nanos + share
    }
}
