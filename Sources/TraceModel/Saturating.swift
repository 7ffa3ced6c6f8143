/// Time arithmetic that cannot trap: a deadline past the end of `Int64` is as good as never.
///
/// Timestamps are bounded (0…2^53 ms, checked when a record is decoded) and so are the options
/// (a day at most), so these never saturate on a valid trace; they keep a trace that slips past those
/// checks (a record built in memory, a future field) from stopping a whole run with a trap.
extension Int64 {
    /// `self + other`, clamped to `Int64`'s range.
    @inlinable
    public func saturatingAdd(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self * other`, clamped to `Int64`'s range.
    @inlinable
    public func saturatingMultiply(_ other: Int64) -> Int64 {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) == (other < 0) ? .max : .min) : product
    }
}
