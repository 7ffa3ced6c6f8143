/// An ISO 8601 wall-clock time turned into UTC, without a calendar library: the header's `startedAt`
/// carries the writer's offset (`2026-11-29T10:00:00+08:00`), and a fleet's days are UTC days. A time
/// without an offset names no instant, so it has no UTC form.
public enum UTCTime {
    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` for `YYYY-MM-DD(T| )HH:MM[:SS[.fff…]](Z|±HH[:MM]|±HHMM)`, or nil for
    /// anything else. A time without an offset is nil: it is the writer's local time in a zone it does
    /// not name, so no instant follows from it (taking it as UTC was hours off, silently). Fractions are
    /// cut to milliseconds.
    public static func normalised(_ text: String) -> String? {
        guard let (ms, zoned) = parse(text), zoned else { return nil }
        return iso(ms)
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` for milliseconds since 1970-01-01T00:00:00Z (negative ones included).
    public static func iso(_ ms: Int64) -> String {
        let dayIndex = floorDiv(Int(ms), 86_400_000)
        let inDay = Int(ms) - dayIndex * 86_400_000
        let (y, m, d) = civilDate(daysSince1970: dayIndex)
        let minutes = inDay / 60_000, second = inDay / 1000 % 60, millis = inDay % 1000
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + "T" + pad(minutes / 60, 2) + ":" + pad(minutes % 60, 2) + ":"
            + pad(second, 2) + "." + pad(millis, 3) + "Z"
    }

    /// Milliseconds since 1970-01-01T00:00:00Z for the times `normalised` reads, or nil; a time without
    /// an offset is counted as if it were UTC, which only compares it with times written the same way
    /// (the parts of one session, whose headers one writer wrote).
    public static func milliseconds(_ text: String) -> Int64? {
        parse(text)?.ms
    }

    /// The time in milliseconds (a time without an offset counted as UTC), and whether it had an offset.
    static func parse(_ text: String) -> (ms: Int64, zoned: Bool)? {
        let b = Array(text.utf8)
        func number(_ r: Range<Int>) -> Int? {
            guard r.upperBound <= b.count else { return nil }
            var v = 0
            for k in r {
                guard b[k] >= 0x30 && b[k] <= 0x39 else { return nil }
                v = v * 10 + Int(b[k] - 0x30)
            }
            return v
        }
        guard b.count >= 11, let year = number(0..<4), b[4] == 0x2D, let month = number(5..<7), b[7] == 0x2D, let day = number(8..<10),
              b[10] == 0x54 || b[10] == 0x74 || b[10] == 0x20, let clock = clock(b[11...]),
              (1...12).contains(month), day >= 1, day <= daysIn(month, year) else { return nil }
        let midnight = Int64(daysSince1970(year: year, month: month, day: day)) * 86_400_000
        return (midnight + clock.ms - Int64(clock.offsetMinutes ?? 0) * 60_000, clock.offsetMinutes != nil)
    }

    /// A time of day as written after a date, or alone: `HH:MM[:SS[.fff…]]` and an optional offset
    /// (`Z`, `±HH`, `±HHMM`, `±HH:MM`).
    public struct Clock: Equatable, Sendable {
        /// Milliseconds since the day's local midnight (fractions cut to milliseconds).
        public var ms: Int64
        /// The offset written, in minutes east of UTC; nil when none was.
        public var offsetMinutes: Int?
        /// How many digits of a second's fraction were written (0: whole seconds; -1: no seconds).
        public var fractionDigits: Int
    }

    /// Reads a time of day (the whole of `b`), or nil.
    public static func clock(_ b: ArraySlice<UInt8>) -> Clock? {
        var i = b.startIndex
        func digits(_ n: Int) -> Int? {
            guard i + n <= b.endIndex else { return nil }
            var v = 0
            for k in i..<(i + n) {
                guard b[k] >= 0x30 && b[k] <= 0x39 else { return nil }
                v = v * 10 + Int(b[k] - 0x30)
            }
            i += n
            return v
        }
        func take(_ c: UInt8) -> Bool {
            guard i < b.endIndex, b[i] == c else { return false }
            i += 1
            return true
        }
        guard let hour = digits(2), hour <= 24, take(0x3A), let minute = digits(2), minute <= 59 else { return nil }
        var ms = Int64(hour * 3_600_000 + minute * 60_000), fraction = -1
        if take(0x3A) {
            guard let second = digits(2), second <= 60 else { return nil }
            ms += Int64(second * 1000)
            fraction = 0
            if take(0x2E) || take(0x2C) {
                var scale: Int64 = 100
                while i < b.endIndex, b[i] >= 0x30 && b[i] <= 0x39 {
                    ms += Int64(b[i] - 0x30) * scale
                    scale /= 10
                    fraction += 1
                    i += 1
                }
                guard fraction > 0 else { return nil }
            }
        }
        var offset: Int?
        if i < b.endIndex {
            if take(0x5A) || take(0x7A) {
                offset = 0
            } else if b[i] == 0x2B || b[i] == 0x2D {
                let sign = b[i] == 0x2D ? -1 : 1
                i += 1
                guard let oh = digits(2) else { return nil }
                var om = 0
                if i < b.endIndex {
                    _ = take(0x3A)
                    guard let m = digits(2) else { return nil }
                    om = m
                }
                guard oh <= 23, om <= 59 else { return nil }
                offset = sign * (oh * 60 + om)
            } else {
                return nil
            }
        }
        guard i == b.endIndex else { return nil }
        return Clock(ms: ms, offsetMinutes: offset, fractionDigits: fraction)
    }

    static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

    static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    static func daysIn(_ m: Int, _ y: Int) -> Int {
        switch m {
        case 2: isLeap(y) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
