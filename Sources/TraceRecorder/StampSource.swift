import SystemLayer

/// What a call's record is stamped with: the processor's counter where it can stand in for the system
/// clock (a reading is one instruction, against the clock's fenced, converted one: most of what a call
/// costs its caller), turned into the clock's nanoseconds when the writer takes the record; the
/// monotonic clock where there is no such counter; the configuration's clock when it is not the system's.
enum StampSource: Equatable {
    case counter
    case monotonic
    case configured

    /// Set in a stamp that is a counter reading (the clock's nanoseconds and the counter both stay far below it).
    static let counterMark: UInt64 = 1 << 63

    /// The source for a configuration.
    static func of(_ configuration: RecorderConfiguration) -> StampSource {
        guard configuration.clock is SystemClock else { return .configured }
        return configuration.counterStamps && TickCounter.isUsable ? .counter : .monotonic
    }
}
